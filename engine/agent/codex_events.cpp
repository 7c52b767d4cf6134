#include "agent/codex_events.h"

#include "agent/agent_profile.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace arizuko::agent {
namespace {

AgentEvent toolUse(const QString &id, const QString &name, const QJsonObject &input)
{
    return {QStringLiteral("tool_use"),
            {{QStringLiteral("id"), id},
             {QStringLiteral("name"), name},
             {QStringLiteral("input"), input},
             {QStringLiteral("summary"), toolCallSummary(name, input)},
             {QStringLiteral("message_id"), id}}};
}

AgentEvent toolResult(const QString &id, const QString &content, bool isError)
{
    return {QStringLiteral("tool_result"),
            {{QStringLiteral("tool_use_id"), id},
             {QStringLiteral("content"), content},
             {QStringLiteral("is_error"), isError}}};
}

// A call's name and input as the transcript shows them; Codex's items
// carry no tool name of their own.
std::pair<QString, QJsonObject> callOf(const QString &type, const QJsonObject &item)
{
    if (type == QLatin1String("command_execution"))
        return {QStringLiteral("shell"),
                {{QStringLiteral("command"), stringMember(item, "command")}}};
    if (type == QLatin1String("file_change"))
        return {QStringLiteral("file_change"),
                {{QStringLiteral("changes"), item.value(QStringLiteral("changes"))}}};
    if (type == QLatin1String("mcp_tool_call"))
        return {QStringLiteral("mcp__%1__%2")
                    .arg(stringMember(item, "server"), stringMember(item, "tool")),
                item.value(QStringLiteral("arguments")).toObject()};
    if (type == QLatin1String("web_search"))
        return {QStringLiteral("web_search"),
                {{QStringLiteral("query"), stringMember(item, "query")}}};
    return {QStringLiteral("todo_list"),
            {{QStringLiteral("items"), item.value(QStringLiteral("items"))}}};
}

// What a finished call answered, and whether it failed.
std::pair<QString, bool> resultOf(const QString &type, const QJsonObject &item)
{
    const bool failed = stringMember(item, "status") == QLatin1String("failed");
    if (type == QLatin1String("command_execution")) {
        const QJsonValue exitCode = item.value(QStringLiteral("exit_code"));
        return {stringMember(item, "aggregated_output"),
                failed || (exitCode.isDouble() && exitCode.toInt() != 0)};
    }
    if (type == QLatin1String("file_change")) {
        QStringList lines;
        for (const QJsonValue &change : item.value(QStringLiteral("changes")).toArray())
            lines << stringMember(change.toObject(), "kind") + QLatin1Char(' ') +
                         stringMember(change.toObject(), "path");
        return {lines.join(QLatin1Char('\n')), failed};
    }
    if (type == QLatin1String("mcp_tool_call")) {
        const QJsonObject error = item.value(QStringLiteral("error")).toObject();
        if (!error.isEmpty())
            return {stringMember(error, "message"), true};
        QStringList parts;
        const QJsonObject result = item.value(QStringLiteral("result")).toObject();
        for (const QJsonValue &block : result.value(QStringLiteral("content")).toArray())
            parts << (stringMember(block.toObject(), "type") == QLatin1String("text")
                          ? stringMember(block.toObject(), "text")
                          : QStringLiteral("[%1]").arg(stringMember(block.toObject(), "type")));
        return {parts.join(QLatin1Char('\n')), failed};
    }
    if (type == QLatin1String("todo_list")) {
        QStringList lines;
        for (const QJsonValue &entry : item.value(QStringLiteral("items")).toArray())
            lines << (entry.toObject().value(QStringLiteral("completed")).toBool()
                          ? QStringLiteral("[x] ")
                          : QStringLiteral("[ ] ")) +
                         stringMember(entry.toObject(), "text");
        return {lines.join(QLatin1Char('\n')), failed};
    }
    return {QString(), failed};
}

bool isCall(const QString &type)
{
    return type == QLatin1String("command_execution") || type == QLatin1String("file_change") ||
           type == QLatin1String("mcp_tool_call") || type == QLatin1String("web_search") ||
           type == QLatin1String("todo_list");
}

} // namespace

QList<AgentEvent> CodexEventReader::read(const QString &line)
{
    const std::optional<QJsonObject> parsed = jsonObjectOfLine(line);
    if (!parsed)
        return {outputEvent(line)};
    const QJsonObject &object = *parsed;
    const QString type = stringMember(object, "type");
    if (type == QLatin1String("thread.started")) {
        m_threadId = stringMember(object, "thread_id");
        return {{QStringLiteral("init"),
                 {{QStringLiteral("session_id"), m_threadId},
                  {QStringLiteral("agent"), QString(codexProfile.name)}}}};
    }
    if (type == QLatin1String("turn.started"))
        return {};
    if (type == QLatin1String("item.started") || type == QLatin1String("item.updated") ||
        type == QLatin1String("item.completed"))
        return fromItem(object.value(QStringLiteral("item")).toObject(),
                        type == QLatin1String("item.completed"));
    if (type == QLatin1String("turn.completed")) {
        const QJsonObject usage = object.value(QStringLiteral("usage")).toObject();
        return {
            {QStringLiteral("result"),
             {{QStringLiteral("subtype"), QStringLiteral("success")},
              {QStringLiteral("is_error"), false},
              {QStringLiteral("text"), m_lastText},
              {QStringLiteral("session_id"), m_threadId},
              // Codex counts the whole thread, every turn of it so far;
              // the gateway's count of this turn is the bill.
              {QStringLiteral("usage_scope"), QStringLiteral("thread")},
              {QStringLiteral("usage"),
               QJsonObject{{QStringLiteral("input_tokens"),
                            usage.value(QStringLiteral("input_tokens")).toInteger()},
                           {QStringLiteral("output_tokens"),
                            usage.value(QStringLiteral("output_tokens")).toInteger()},
                           {QStringLiteral("cache_creation_input_tokens"),
                            usage.value(QStringLiteral("cache_write_input_tokens")).toInteger()},
                           {QStringLiteral("cache_read_input_tokens"),
                            usage.value(QStringLiteral("cached_input_tokens")).toInteger()}}}}}};
    }
    if (type == QLatin1String("turn.failed")) {
        const QString message =
            stringMember(object.value(QStringLiteral("error")).toObject(), "message");
        return {{QStringLiteral("result"),
                 {{QStringLiteral("subtype"), QStringLiteral("error")},
                  {QStringLiteral("is_error"), true},
                  {QStringLiteral("text"),
                   message.isEmpty() ? QStringLiteral("Codex's turn failed") : message},
                  {QStringLiteral("session_id"), m_threadId}}}};
    }
    // Top-level `error` lines (a failed request, a reconnect notice) come
    // before turn.failed, which ends the turn; they stay as output.
    return {outputEvent(line)};
}

QList<AgentEvent> CodexEventReader::fromItem(const QJsonObject &item, bool completed)
{
    const QString type = stringMember(item, "type");
    const QString id = stringMember(item, "id");
    if (type == QLatin1String("agent_message")) {
        if (!completed)
            return {};
        m_lastText = stringMember(item, "text");
        return {{QStringLiteral("text"),
                 {{QStringLiteral("text"), m_lastText}, {QStringLiteral("message_id"), id}}}};
    }
    if (type == QLatin1String("reasoning")) {
        if (!completed)
            return {};
        return {{QStringLiteral("thinking"),
                 {{QStringLiteral("text"), stringMember(item, "text")},
                  {QStringLiteral("message_id"), id}}}};
    }
    if (isCall(type)) {
        QList<AgentEvent> events;
        if (!m_shownCalls.contains(id)) {
            m_shownCalls.insert(id);
            const auto [name, input] = callOf(type, item);
            events.append(toolUse(id, name, input));
        }
        if (completed) {
            const auto [content, failed] = resultOf(type, item);
            events.append(toolResult(id, content, failed));
        }
        return events;
    }
    // An `error` item is a warning Codex goes on after; anything else is
    // new to this reader. Both stay visible as output.
    if (!completed)
        return {};
    return {outputEvent(QString::fromUtf8(QJsonDocument(item).toJson(QJsonDocument::Compact)))};
}

} // namespace arizuko::agent
