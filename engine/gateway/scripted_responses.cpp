// The scripted model's OpenAI Responses API (POST /v1/responses), as Codex
// calls it: the same script and steps as the Messages API, with the
// conversation read from `input` and the reply written as the Responses
// API's output items and SSE events (docs/model-gateway.md).

#include "gateway/api_error.h"
#include "gateway/scripted_model.h"
#include "gateway/scripted_parts.h"
#include "gateway/sse.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>

namespace arizuko::gateway {

namespace {

using namespace scripted;

// Items the model wrote; a run of them is one step of the script.
bool isModelItem(const QJsonObject &item)
{
    const QString type = item.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("message"))
        return item.value(QStringLiteral("role")).toString() == QLatin1String("assistant");
    return type == QLatin1String("function_call") || type == QLatin1String("custom_tool_call") ||
           type == QLatin1String("local_shell_call") || type == QLatin1String("reasoning") ||
           type == QLatin1String("web_search_call");
}

// The user's words in a user message, or empty when it only carries context
// the agent injects whole (Codex's <environment_context>…</environment_context>,
// <user_instructions>…).
QString promptText(const QJsonValue &content)
{
    static const QRegularExpression injected(QStringLiteral("^\\s*<([A-Za-z_]+)>.*</\\1>\\s*$"),
                                             QRegularExpression::DotMatchesEverythingOption);
    QStringList parts;
    const QJsonArray blocks =
        content.isString()
            ? QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("input_text")},
                                     {QStringLiteral("text"), content.toString()}}}
            : content.toArray();
    for (const QJsonValue &block : blocks) {
        const QJsonObject object = block.toObject();
        if (object.value(QStringLiteral("type")).toString() != QLatin1String("input_text"))
            continue;
        const QString text = object.value(QStringLiteral("text")).toString().trimmed();
        if (!text.isEmpty() && !injected.match(text).hasMatch())
            parts.append(text);
    }
    return parts.join(QLatin1Char('\n'));
}

QJsonObject usageObject(qint64 input, qint64 output)
{
    return {
        {QStringLiteral("input_tokens"), input},
        {QStringLiteral("input_tokens_details"), QJsonObject{{QStringLiteral("cached_tokens"), 0}}},
        {QStringLiteral("output_tokens"), output},
        {QStringLiteral("output_tokens_details"),
         QJsonObject{{QStringLiteral("reasoning_tokens"), 0}}},
        {QStringLiteral("total_tokens"), input + output}};
}

QJsonObject textPart(const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("output_text")},
            {QStringLiteral("text"), text},
            {QStringLiteral("annotations"), QJsonArray()}};
}

// The SSE events of one output item, from output_item.added to .done.
QList<QJsonObject> itemEvents(const QJsonObject &item, int index)
{
    const QString id = item.value(QStringLiteral("id")).toString();
    const QJsonObject where{{QStringLiteral("item_id"), id},
                            {QStringLiteral("output_index"), index}};
    const auto event = [&where](const char *type, const QJsonObject &fields) {
        QJsonObject object = where;
        object.insert(QStringLiteral("type"), QLatin1String(type));
        for (auto it = fields.begin(); it != fields.end(); ++it)
            object.insert(it.key(), it.value());
        return object;
    };
    QList<QJsonObject> events;
    QJsonObject started = item;
    started.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
    if (item.value(QStringLiteral("type")).toString() == QLatin1String("message")) {
        const QString text = item.value(QStringLiteral("content"))
                                 .toArray()
                                 .first()
                                 .toObject()
                                 .value(QStringLiteral("text"))
                                 .toString();
        started.insert(QStringLiteral("content"), QJsonArray());
        events.append({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                       {QStringLiteral("output_index"), index},
                       {QStringLiteral("item"), started}});
        events.append(
            event("response.content_part.added",
                  {{QStringLiteral("content_index"), 0}, {QStringLiteral("part"), textPart({})}}));
        events.append(event("response.output_text.delta", {{QStringLiteral("content_index"), 0},
                                                           {QStringLiteral("delta"), text}}));
        events.append(event("response.output_text.done", {{QStringLiteral("content_index"), 0},
                                                          {QStringLiteral("text"), text}}));
        events.append(
            event("response.content_part.done", {{QStringLiteral("content_index"), 0},
                                                 {QStringLiteral("part"), textPart(text)}}));
    } else if (item.value(QStringLiteral("type")).toString() == QLatin1String("custom_tool_call")) {
        const QString input = item.value(QStringLiteral("input")).toString();
        started.insert(QStringLiteral("input"), QString());
        events.append({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                       {QStringLiteral("output_index"), index},
                       {QStringLiteral("item"), started}});
        events.append(
            event("response.custom_tool_call_input.delta", {{QStringLiteral("delta"), input}}));
        events.append(
            event("response.custom_tool_call_input.done", {{QStringLiteral("input"), input}}));
    } else {
        const QString arguments = item.value(QStringLiteral("arguments")).toString();
        started.insert(QStringLiteral("arguments"), QString());
        events.append({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                       {QStringLiteral("output_index"), index},
                       {QStringLiteral("item"), started}});
        events.append(event("response.function_call_arguments.delta",
                            {{QStringLiteral("delta"), arguments}}));
        events.append(event("response.function_call_arguments.done",
                            {{QStringLiteral("arguments"), arguments}}));
    }
    events.append({{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                   {QStringLiteral("output_index"), index},
                   {QStringLiteral("item"), item}});
    return events;
}

// The tools a request offers: its `tools`, and those of its
// `additional_tools` input items, where Codex's code mode sends them.
QJsonArray requestTools(const QJsonObject &request)
{
    QJsonArray tools = request.value(QStringLiteral("tools")).toArray();
    for (const QJsonValue &value : request.value(QStringLiteral("input")).toArray()) {
        const QJsonObject item = value.toObject();
        if (item.value(QStringLiteral("type")).toString() != QLatin1String("additional_tools"))
            continue;
        for (const QJsonValue &tool : item.value(QStringLiteral("tools")).toArray())
            tools.append(tool);
    }
    return tools;
}

// Codex's code mode (0.171.0's default model asks in it): the shell and
// the MCP tools are not offered themselves but nested in the freeform
// `exec` tool, whose input is JavaScript calling `tools.NAME(args)`. Its
// description declares each nested tool ("declare const tools: {
// NAME(…"); none when the request is not in code mode.
QStringList codeModeTools(const QJsonArray &tools)
{
    static const QRegularExpression declared(
        QStringLiteral("declare const tools: \\{ ([A-Za-z_$][A-Za-z0-9_$]*)\\("));
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        const bool plainSpace =
            tool.value(QStringLiteral("type")).toString() == QLatin1String("namespace") &&
            isPlainNamespace(tool.value(QStringLiteral("name")).toString());
        const QJsonArray candidates =
            plainSpace ? tool.value(QStringLiteral("tools")).toArray() : QJsonArray{tool};
        for (const QJsonValue &candidate : candidates) {
            const QJsonObject exec = candidate.toObject();
            if (exec.value(QStringLiteral("type")).toString() != QLatin1String("custom") ||
                exec.value(QStringLiteral("name")).toString() != QLatin1String("exec"))
                continue;
            QStringList names;
            auto matches =
                declared.globalMatch(exec.value(QStringLiteral("description")).toString());
            while (matches.hasNext())
                names << matches.next().captured(1);
            return names;
        }
    }
    return {};
}

// A scripted call as code mode makes it: the `exec` tool, running
// JavaScript that calls the nested tool and hands back what it returned.
QJsonObject codeModeCall(const ScriptedToolUse &use, const QString &callId)
{
    const QString source =
        QStringLiteral("text(await tools.%1(%2));")
            .arg(use.name,
                 QString::fromUtf8(QJsonDocument(use.input).toJson(QJsonDocument::Compact)));
    return {{QStringLiteral("type"), QStringLiteral("custom_tool_call")},
            {QStringLiteral("id"), randomId(u"ctc_")},
            {QStringLiteral("call_id"), callId},
            {QStringLiteral("name"), QStringLiteral("exec")},
            {QStringLiteral("input"), source},
            {QStringLiteral("status"), QStringLiteral("completed")}};
}

// A call of a tool offered inside a namespace names the namespace and the
// tool apart (Codex answers "unsupported call" to the full name alone).
void addNamespace(QJsonObject &call, const QJsonArray &tools)
{
    const QString name = call.value(QStringLiteral("name")).toString();
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        if (tool.value(QStringLiteral("type")).toString() != QLatin1String("namespace"))
            continue;
        const QString space = tool.value(QStringLiteral("name")).toString();
        if (isPlainNamespace(space))
            continue;
        for (const QJsonValue &inner : tool.value(QStringLiteral("tools")).toArray()) {
            const QString innerName = inner.toObject().value(QStringLiteral("name")).toString();
            if (namespacedToolName(space, innerName) != name)
                continue;
            call.insert(QStringLiteral("name"), innerName);
            call.insert(QStringLiteral("namespace"), space);
            return;
        }
    }
}

} // namespace

ConversationPosition ScriptedModel::responsesPosition(const QJsonArray &input)
{
    ConversationPosition position;
    bool inModelRun = false;
    for (qsizetype index = input.size() - 1; index >= 0; --index) {
        const QJsonObject item = input[index].toObject();
        if (isModelItem(item)) {
            if (!inModelRun)
                ++position.step;
            inModelRun = true;
            continue;
        }
        inModelRun = false;
        if (item.value(QStringLiteral("type")).toString(QStringLiteral("message")) !=
                QLatin1String("message") ||
            item.value(QStringLiteral("role")).toString() != QLatin1String("user"))
            continue;
        const QString prompt = promptText(item.value(QStringLiteral("content")));
        if (!prompt.isEmpty()) {
            position.prompt = prompt;
            return position;
        }
    }
    return position;
}

const ScriptedStep &ScriptedModel::selectResponse(const QJsonObject &request) const
{
    const QJsonValue input = request.value(QStringLiteral("input"));
    // A bare string is a one-message conversation.
    const QJsonArray items =
        input.isString()
            ? QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                     {QStringLiteral("role"), QStringLiteral("user")},
                                     {QStringLiteral("content"), input}}}
            : input.toArray();
    return selectAt(responsesPosition(items), !requestTools(request).isEmpty());
}

ScriptedReply ScriptedModel::responsesReply(const QJsonObject &request,
                                            qsizetype requestBytes) const
{
    const ScriptedStep &step = selectResponse(request);
    ScriptedReply reply;
    reply.delay = step.delay;
    reply.eventDelay = step.eventDelay;
    reply.dropAfterEvents = step.dropAfterEvents;
    reply.hold = step.hold;
    if (step.error) {
        errorReply(reply, *step.error);
        reply.body = openAIErrorBody(step.error->status, step.error->message, step.error->type);
        return reply;
    }

    QJsonArray output;
    qsizetype outputBytes = step.text.toUtf8().size();
    if (!step.text.isEmpty())
        output.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                  {QStringLiteral("id"), randomId(u"msg_")},
                                  {QStringLiteral("status"), QStringLiteral("completed")},
                                  {QStringLiteral("role"), QStringLiteral("assistant")},
                                  {QStringLiteral("content"), QJsonArray{textPart(step.text)}}});
    const QJsonArray tools = requestTools(request);
    const QStringList offered = offeredTools(tools);
    const QStringList nested = codeModeTools(tools);
    for (const ScriptedToolUse &scripted : step.toolUses) {
        const ScriptedToolUse use = forOfferedTools(scripted, offered);
        const QString callId = use.id.isEmpty() ? randomId(u"call_") : use.id;
        // A tool not offered itself is called through code mode's `exec`,
        // which may also hold tools its description leaves out (deferred).
        if (!offered.contains(use.name) && !nested.isEmpty()) {
            const QJsonObject call = codeModeCall(forOfferedTools(scripted, nested), callId);
            outputBytes += call.value(QStringLiteral("input")).toString().toUtf8().size();
            output.append(call);
            continue;
        }
        const QByteArray arguments = QJsonDocument(use.input).toJson(QJsonDocument::Compact);
        outputBytes += arguments.size();
        QJsonObject call{{QStringLiteral("type"), QStringLiteral("function_call")},
                         {QStringLiteral("id"), randomId(u"fc_")},
                         {QStringLiteral("call_id"), callId},
                         {QStringLiteral("name"), use.name},
                         {QStringLiteral("arguments"), QString::fromUtf8(arguments)},
                         {QStringLiteral("status"), QStringLiteral("completed")}};
        addNamespace(call, tools);
        output.append(call);
    }
    const qint64 input = step.inputTokens.value_or(roughTokens(requestBytes));
    const qint64 outputTokens = step.outputTokens.value_or(roughTokens(outputBytes));
    QJsonObject response{
        {QStringLiteral("id"), randomId(u"resp_")},
        {QStringLiteral("object"), QStringLiteral("response")},
        {QStringLiteral("created_at"), QDateTime::currentSecsSinceEpoch()},
        {QStringLiteral("status"), QStringLiteral("completed")},
        {QStringLiteral("model"),
         request.value(QStringLiteral("model")).toString(QStringLiteral("scripted"))},
        {QStringLiteral("output"), output},
        {QStringLiteral("usage"), usageObject(input, outputTokens)}};

    if (!request.value(QStringLiteral("stream")).toBool()) {
        reply.headers = jsonHeaders;
        reply.body = QJsonDocument(response).toJson(QJsonDocument::Compact);
        return reply;
    }

    reply.streamed = true;
    reply.headers = streamHeaders;
    QJsonObject underway = response;
    underway.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
    underway.insert(QStringLiteral("output"), QJsonArray());
    underway.insert(QStringLiteral("usage"), QJsonValue());
    QList<QJsonObject> events{{{QStringLiteral("type"), QStringLiteral("response.created")},
                               {QStringLiteral("response"), underway}},
                              {{QStringLiteral("type"), QStringLiteral("response.in_progress")},
                               {QStringLiteral("response"), underway}}};
    for (qsizetype index = 0; index < output.size(); ++index)
        events.append(itemEvents(output[index].toObject(), int(index)));
    events.append({{QStringLiteral("type"), QStringLiteral("response.completed")},
                   {QStringLiteral("response"), response}});
    for (qsizetype sequence = 0; sequence < events.size(); ++sequence) {
        QJsonObject &event = events[sequence];
        event.insert(QStringLiteral("sequence_number"), sequence);
        reply.events.append(
            encodeSseEvent(event.value(QStringLiteral("type")).toString().toUtf8(), event));
    }
    return reply;
}

} // namespace arizuko::gateway
