#include "turns/claude_code_session.h"

#include "agent/agent_events.h"

namespace arizuko::turns {
namespace {

// Claude Code writes one JSON object per line; a line this long is not one
// the transcript keeps whole.
constexpr qsizetype maxAgentLineChars = 16 * 1024 * 1024;

} // namespace

ClaudeCodeSession::ClaudeCodeSession(AgentLaunch launch)
    : m_launch(std::move(launch))
{}

QJsonObject ClaudeCodeSession::specMembers() const
{
    return {
        {QStringLiteral("agent"), agentKindName(AgentKind::Claude)},
        {QStringLiteral("prompt"), m_launch.observedContext + m_launch.prompt},
        {QStringLiteral("command"), QString()},
        {QStringLiteral("session_id"), m_launch.sessionId},
        {QStringLiteral("session_mode"),
         m_launch.newSession ? QStringLiteral("new") : QStringLiteral("resume")},
        {QStringLiteral("model"), m_launch.model},
    };
}

QList<AgentOutput> ClaudeCodeSession::read(const QJsonObject &message)
{
    m_partialLine += message.value(QStringLiteral("line")).toString();
    if (message.value(QStringLiteral("continued")).toBool() &&
        m_partialLine.size() < maxAgentLineChars)
        return {};
    const QString line = std::exchange(m_partialLine, QString());
    qsizetype lineChars = line.size(); // counted once, with the line's first event
    QList<AgentOutput> output;
    for (const agent::AgentEvent &event : agent::agentEventsFromLine(line)) {
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

std::optional<QString> ClaudeCodeSession::takeMovedSession()
{
    return std::exchange(m_movedSession, std::nullopt);
}

} // namespace arizuko::turns
