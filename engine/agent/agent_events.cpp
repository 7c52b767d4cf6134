#include "agent/agent_events.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace arizuko::agent {
namespace {

QJsonObject usageOf(const QJsonObject &usage)
{
    QJsonObject kept;
    for (const char *key : {"input_tokens", "output_tokens", "cache_creation_input_tokens",
                            "cache_read_input_tokens"}) {
        if (usage.contains(QLatin1String(key)))
            kept.insert(QLatin1String(key), usage.value(QLatin1String(key)).toInteger());
    }
    return kept;
}

QList<AgentEvent> fromAssistant(const QJsonObject &line)
{
    const QJsonObject message = line.value(QStringLiteral("message")).toObject();
    const QString messageId = stringMember(message, "id");
    return assistantContentEvents(message.value(QStringLiteral("content")).toArray(), messageId,
                                  {QLatin1String("tool_use"), QLatin1String("input")});
}

QList<AgentEvent> fromUser(const QJsonObject &line)
{
    QList<AgentEvent> events;
    const QJsonValue content =
        line.value(QStringLiteral("message")).toObject().value(QStringLiteral("content"));
    for (const QJsonValue &value : content.toArray()) {
        const QJsonObject block = value.toObject();
        if (stringMember(block, "type") != QLatin1String("tool_result"))
            continue;
        events.append(
            {QStringLiteral("tool_result"),
             {{QStringLiteral("tool_use_id"), stringMember(block, "tool_use_id")},
              {QStringLiteral("content"), toolResultText(block.value(QStringLiteral("content")))},
              {QStringLiteral("is_error"), block.value(QStringLiteral("is_error")).toBool()}}});
    }
    return events;
}

AgentEvent fromInit(const QJsonObject &line)
{
    QJsonArray servers;
    for (const QJsonValue &server : line.value(QStringLiteral("mcp_servers")).toArray())
        servers.append(server.toObject());
    return {QStringLiteral("init"),
            {{QStringLiteral("session_id"), stringMember(line, "session_id")},
             {QStringLiteral("model"), stringMember(line, "model")},
             {QStringLiteral("cwd"), stringMember(line, "cwd")},
             {QStringLiteral("tools"), line.value(QStringLiteral("tools")).toArray()},
             {QStringLiteral("mcp_servers"), servers},
             {QStringLiteral("skills"), line.value(QStringLiteral("skills")).toArray()},
             {QStringLiteral("claude_code_version"), stringMember(line, "claude_code_version")}}};
}

AgentEvent fromResult(const QJsonObject &line)
{
    QJsonObject result{
        {QStringLiteral("subtype"), stringMember(line, "subtype")},
        {QStringLiteral("is_error"), line.value(QStringLiteral("is_error")).toBool()},
        {QStringLiteral("text"), stringMember(line, "result")},
        {QStringLiteral("session_id"), stringMember(line, "session_id")},
        {QStringLiteral("num_turns"), line.value(QStringLiteral("num_turns")).toInteger()},
        {QStringLiteral("duration_ms"), line.value(QStringLiteral("duration_ms")).toInteger()},
        {QStringLiteral("usage"), usageOf(line.value(QStringLiteral("usage")).toObject())}};
    // What the agent itself claims it cost; the gateway's own count is on
    // the turn (the agent is not trusted with the bill).
    if (line.value(QStringLiteral("total_cost_usd")).isDouble())
        result.insert(QStringLiteral("agent_cost_usd"),
                      line.value(QStringLiteral("total_cost_usd")).toDouble());
    return {QStringLiteral("result"), result};
}

// Claude Code says every few seconds that a tool is still running (a slow
// command, or any command under TCG): how long, not what it printed.
AgentEvent fromToolProgress(const QJsonObject &line)
{
    return {QStringLiteral("tool_progress"),
            {{QStringLiteral("tool_use_id"), stringMember(line, "tool_use_id")},
             {QStringLiteral("tool_name"), stringMember(line, "tool_name")},
             {QStringLiteral("elapsed_seconds"),
              line.value(QStringLiteral("elapsed_time_seconds")).toDouble()}}};
}

// Claude Code 2.1 announces a shell command that runs a while as a task,
// and says when it ended: what the tool_use and tool_result already hold
// for a command in the foreground, and news of one in the background.
AgentEvent fromTask(const QJsonObject &line)
{
    QJsonObject task{{QStringLiteral("subtype"), stringMember(line, "subtype")},
                     {QStringLiteral("task_id"), stringMember(line, "task_id")},
                     {QStringLiteral("tool_use_id"), stringMember(line, "tool_use_id")}};
    for (const char *key : {"status", "description", "summary"}) {
        if (line.value(QLatin1String(key)).isString())
            task.insert(QLatin1String(key), stringMember(line, key));
    }
    return {QStringLiteral("task"), task};
}

} // namespace

std::optional<QJsonObject> jsonObjectOfLine(const QString &line)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

AgentEvent outputEvent(const QString &line)
{
    return {QStringLiteral("output"), QJsonObject{{QStringLiteral("line"), line}}};
}

QString stringMember(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

QList<AgentEvent> agentEventsFromLine(const QString &line)
{
    const std::optional<QJsonObject> parsed = jsonObjectOfLine(line);
    if (!parsed)
        return {outputEvent(line)};
    const QJsonObject &object = *parsed;
    const QString type = stringMember(object, "type");
    if (type == QLatin1String("assistant"))
        return fromAssistant(object);
    if (type == QLatin1String("user"))
        return fromUser(object);
    if (type == QLatin1String("result"))
        return {fromResult(object)};
    if (type == QLatin1String("system") && stringMember(object, "subtype") == QLatin1String("init"))
        return {fromInit(object)};
    if (type == QLatin1String("tool_progress"))
        return {fromToolProgress(object)};
    if (type == QLatin1String("system") && stringMember(object, "subtype").startsWith(u"task_"))
        return {fromTask(object)};
    return {outputEvent(line)};
}

QString toolCallSummary(const QString &name, const QJsonObject &input, int width)
{
    QString argument;
    for (const char *key : {"command", "file_path", "path", "pattern", "url", "query",
                            "description", "prompt"}) {
        if (input.value(QLatin1String(key)).isString()) {
            argument = input.value(QLatin1String(key)).toString();
            break;
        }
    }
    if (argument.isEmpty() && !input.isEmpty())
        argument = QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact));
    argument = argument.simplified();
    QString summary = argument.isEmpty() ? name : name + QStringLiteral(": ") + argument;
    if (summary.size() > width)
        summary = summary.left(width - 1) + QChar(0x2026);
    return summary;
}

QList<AgentEvent> assistantContentEvents(const QJsonArray &content, const QString &messageId,
                                         ToolCallBlock toolCall)
{
    QList<AgentEvent> events;
    for (const QJsonValue &value : content) {
        const QJsonObject block = value.toObject();
        const QString type = stringMember(block, "type");
        if (type == QLatin1String("text")) {
            events.append({QStringLiteral("text"),
                           {{QStringLiteral("text"), stringMember(block, "text")},
                            {QStringLiteral("message_id"), messageId}}});
        } else if (type == QLatin1String("thinking")) {
            events.append({QStringLiteral("thinking"),
                           {{QStringLiteral("text"), stringMember(block, "thinking")},
                            {QStringLiteral("message_id"), messageId}}});
        } else if (type == toolCall.type) {
            const QJsonObject input = block.value(toolCall.input).toObject();
            events.append(
                {QStringLiteral("tool_use"),
                 {{QStringLiteral("id"), stringMember(block, "id")},
                  {QStringLiteral("name"), stringMember(block, "name")},
                  {QStringLiteral("input"), input},
                  {QStringLiteral("summary"), toolCallSummary(stringMember(block, "name"), input)},
                  {QStringLiteral("message_id"), messageId}}});
        }
    }
    return events;
}

QString toolResultText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    QStringList parts;
    for (const QJsonValue &block : content.toArray()) {
        const QJsonObject object = block.toObject();
        if (stringMember(object, "type") == QLatin1String("text"))
            parts << stringMember(object, "text");
        else
            parts << QStringLiteral("[%1]").arg(stringMember(object, "type"));
    }
    return parts.join(QLatin1Char('\n'));
}

} // namespace arizuko::agent
