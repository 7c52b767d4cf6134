#include "turns/json_lines_session.h"

namespace arizuko::turns {
namespace {

// The agents write one JSON object per line; a line this long is not one
// the transcript keeps whole.
constexpr qsizetype maxAgentLineChars = 16 * 1024 * 1024;

} // namespace

JsonLinesSession::JsonLinesSession(AgentLaunch launch)
    : m_launch(std::move(launch))
{}

QJsonObject JsonLinesSession::agentSpecMembers(const QString &preamble) const
{
    return {
        {QStringLiteral("agent"), agentKindName(kind())},
        {QStringLiteral("prompt"), m_launch.observedContext + preamble + m_launch.prompt},
        {QStringLiteral("command"), QString()},
        {QStringLiteral("session_id"), m_launch.sessionId},
        {QStringLiteral("session_mode"),
         m_launch.newSession ? QStringLiteral("new") : QStringLiteral("resume")},
        {QStringLiteral("model"), m_launch.model},
    };
}

QList<AgentOutput> JsonLinesSession::read(const QJsonObject &message)
{
    m_partialLine += message.value(QStringLiteral("line")).toString();
    if (message.value(QStringLiteral("continued")).toBool() &&
        m_partialLine.size() < maxAgentLineChars)
        return {};
    const QString line = std::exchange(m_partialLine, QString());
    qsizetype lineChars = line.size(); // counted once, with the line's first event
    QList<AgentOutput> output;
    for (const agent::AgentEvent &event : eventsFromLine(line)) {
        output.append({event.kind, event.json, std::exchange(lineChars, 0)});
        if (event.kind == QLatin1String("result"))
            m_finalAnswer = event.json.value(QStringLiteral("text")).toString();
        const QString reported = event.json.value(QStringLiteral("session_id")).toString();
        if (event.kind == QLatin1String("init") && !reported.isEmpty() &&
            reported != m_launch.sessionId) {
            // Resume under the id the agent now writes its conversation to.
            m_launch.sessionId = reported;
            m_movedSession = reported;
        }
    }
    return output;
}

std::optional<QString> JsonLinesSession::takeMovedSession()
{
    return std::exchange(m_movedSession, std::nullopt);
}

} // namespace arizuko::turns
