#include "agent/pi_events.h"

#include "agent/agent_profile.h"

#include <QJsonArray>

namespace arizuko::agent {

QList<AgentEvent> PiEventReader::read(const QString &line)
{
    const std::optional<QJsonObject> parsed = jsonObjectOfLine(line);
    if (!parsed)
        return {outputEvent(line)};
    const QJsonObject &object = *parsed;
    const QString type = stringMember(object, "type");
    if (type == QLatin1String("session"))
        return {init(stringMember(object, "id"), stringMember(object, "cwd"))};
    if (type == QLatin1String("response"))
        return fromResponse(object);
    if (type == QLatin1String("message_end")) {
        const QJsonObject message = object.value(QStringLiteral("message")).toObject();
        if (stringMember(message, "role") == QLatin1String("assistant"))
            return fromAssistant(message);
        return {};
    }
    if (type == QLatin1String("tool_execution_end")) {
        const QJsonObject result = object.value(QStringLiteral("result")).toObject();
        return {{QStringLiteral("tool_result"),
                 {{QStringLiteral("tool_use_id"), stringMember(object, "toolCallId")},
                  {QStringLiteral("content"),
                   toolResultText(result.value(QStringLiteral("content")).toArray())},
                  {QStringLiteral("is_error"), object.value(QStringLiteral("isError")).toBool()}}}};
    }
    if (type == QLatin1String("agent_end"))
        return {result()};
    // The rest repeats what message_end and tool_execution_end say whole:
    // deltas (message_update, tool_execution_update) and bracketing events.
    static const QStringList known{QStringLiteral("agent_start"),
                                   QStringLiteral("turn_start"),
                                   QStringLiteral("turn_end"),
                                   QStringLiteral("message_start"),
                                   QStringLiteral("message_update"),
                                   QStringLiteral("tool_execution_start"),
                                   QStringLiteral("tool_execution_update")};
    if (known.contains(type))
        return {};
    return {outputEvent(line)};
}

QList<AgentEvent> PiEventReader::fromAssistant(const QJsonObject &message)
{
    ++m_assistantMessages;
    const QString messageId = QStringLiteral("pi-%1").arg(m_assistantMessages);
    const QList<AgentEvent> events =
        assistantContentEvents(message.value(QStringLiteral("content")).toArray(), messageId,
                               {QLatin1String("toolCall"), QLatin1String("arguments")});
    QStringList texts;
    for (const AgentEvent &event : events) {
        if (event.kind == QLatin1String("text"))
            texts << event.json.value(QStringLiteral("text")).toString();
    }
    if (!texts.isEmpty())
        m_lastText = texts.join(QLatin1Char('\n'));
    m_stopReason = stringMember(message, "stopReason");
    m_errorMessage = stringMember(message, "errorMessage");
    const QJsonObject usage = message.value(QStringLiteral("usage")).toObject();
    m_input += usage.value(QStringLiteral("input")).toInteger();
    m_output += usage.value(QStringLiteral("output")).toInteger();
    m_cacheRead += usage.value(QStringLiteral("cacheRead")).toInteger();
    m_cacheWrite += usage.value(QStringLiteral("cacheWrite")).toInteger();
    m_cost +=
        usage.value(QStringLiteral("cost")).toObject().value(QStringLiteral("total")).toDouble();
    return events;
}

AgentEvent PiEventReader::init(const QString &sessionId, const QString &cwd)
{
    m_sessionId = sessionId;
    return {QStringLiteral("init"),
            {{QStringLiteral("session_id"), m_sessionId},
             {QStringLiteral("cwd"), cwd},
             {QStringLiteral("agent"), QString(piProfile.name)}}};
}

// A started pi (`--mode rpc`) answers the commands PID 1 writes: get_state
// names the session it started (rpc mode prints no header), and a refused
// prompt ends the turn with pi's reason.
QList<AgentEvent> PiEventReader::fromResponse(const QJsonObject &response)
{
    const QString command = stringMember(response, "command");
    const bool success = response.value(QStringLiteral("success")).toBool();
    if (command == QLatin1String("get_state") && success) {
        const QJsonObject state = response.value(QStringLiteral("data")).toObject();
        return {init(stringMember(state, "sessionId"), QString())};
    }
    if (success)
        return {};
    m_errorMessage =
        QStringLiteral("pi refused its %1: %2").arg(command, stringMember(response, "error"));
    return {result()};
}

AgentEvent PiEventReader::result() const
{
    // pi exits 0 even when its model call failed: the last message's stop
    // reason says whether the turn succeeded.
    const bool failed = m_assistantMessages == 0 || m_stopReason == QLatin1String("error") ||
                        m_stopReason == QLatin1String("aborted");
    QString text = failed ? m_errorMessage : m_lastText;
    if (failed && text.isEmpty())
        text = m_assistantMessages == 0 ? QStringLiteral("pi ended without an answer")
                                        : QStringLiteral("pi stopped: %1").arg(m_stopReason);
    return {
        QStringLiteral("result"),
        {{QStringLiteral("subtype"), failed ? QStringLiteral("error") : QStringLiteral("success")},
         {QStringLiteral("is_error"), failed},
         {QStringLiteral("text"), text},
         {QStringLiteral("session_id"), m_sessionId},
         {QStringLiteral("num_turns"), m_assistantMessages},
         {QStringLiteral("usage"),
          QJsonObject{{QStringLiteral("input_tokens"), m_input},
                      {QStringLiteral("output_tokens"), m_output},
                      {QStringLiteral("cache_creation_input_tokens"), m_cacheWrite},
                      {QStringLiteral("cache_read_input_tokens"), m_cacheRead}}},
         // What pi itself claims it cost; the gateway's count is the bill.
         {QStringLiteral("agent_cost_usd"), m_cost}}};
}

} // namespace arizuko::agent
