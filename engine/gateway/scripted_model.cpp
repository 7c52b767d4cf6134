#include "gateway/scripted_model.h"

#include "gateway/api_error.h"
#include "gateway/scripted_parts.h"
#include "gateway/sse.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace arizuko::gateway {

namespace {

using namespace scripted;

// Claude Code wraps context it injects in <system-reminder>; such text is
// not what the user asked.
QString withoutReminders(const QString &text)
{
    static const QRegularExpression reminder(
        QStringLiteral("<system-reminder>.*?(</system-reminder>|$)"),
        QRegularExpression::DotMatchesEverythingOption);
    QString stripped = text;
    stripped.remove(reminder);
    return stripped.trimmed();
}

// The user's words in a message, or empty for tool results and reminders.
QString promptText(const QJsonValue &content)
{
    if (content.isString())
        return withoutReminders(content.toString());
    QStringList parts;
    for (const QJsonValue &block : content.toArray()) {
        const QJsonObject object = block.toObject();
        if (object.value(QStringLiteral("type")).toString() != QLatin1String("text"))
            continue;
        const QString text = withoutReminders(object.value(QStringLiteral("text")).toString());
        if (!text.isEmpty())
            parts.append(text);
    }
    return parts.join(QLatin1Char('\n'));
}

QJsonObject usageObject(qint64 input, qint64 output)
{
    return {{QStringLiteral("input_tokens"), input},
            {QStringLiteral("output_tokens"), output},
            {QStringLiteral("cache_creation_input_tokens"), 0},
            {QStringLiteral("cache_read_input_tokens"), 0}};
}

} // namespace

ConversationPosition ScriptedModel::position(const QJsonArray &messages)
{
    ConversationPosition position;
    for (qsizetype index = messages.size() - 1; index >= 0; --index) {
        const QJsonObject message = messages[index].toObject();
        const QString role = message.value(QStringLiteral("role")).toString();
        if (role == QLatin1String("assistant")) {
            ++position.step;
            continue;
        }
        if (role != QLatin1String("user"))
            continue;
        const QString prompt = promptText(message.value(QStringLiteral("content")));
        if (!prompt.isEmpty()) {
            position.prompt = prompt;
            return position;
        }
    }
    return position;
}

const ScriptedStep &ScriptedModel::select(const QJsonObject &request) const
{
    return selectAt(position(request.value(QStringLiteral("messages")).toArray()),
                    !request.value(QStringLiteral("tools")).toArray().isEmpty());
}

const ScriptedStep &ScriptedModel::selectAt(const ConversationPosition &at, bool offersTools) const
{
    // Title generation and other side queries come without tools; a tool
    // call there would be answered by nobody.
    if (!offersTools)
        return m_textOnlyFallback;
    const QString prompt = at.prompt.toLower();
    for (const ScriptedExchange &exchange : m_exchanges) {
        if (!exchange.prompt.isEmpty() && !prompt.contains(exchange.prompt))
            continue;
        // First match wins, even when it has no step left: falling through
        // to a later exchange would restart a finished conversation.
        return at.step < exchange.steps.size() ? exchange.steps[at.step] : m_fallback;
    }
    return m_fallback;
}

ScriptedReply ScriptedModel::reply(QByteArrayView method, QByteArrayView path,
                                   const QByteArray &body) const
{
    if (method == "HEAD" || method == "GET")
        return jsonReply(200, "{}");
    if (method != "POST")
        return jsonReply(405, anthropicErrorBody(400, QStringLiteral("method not allowed")));
    const bool messages = path == "/v1/messages";
    const bool countTokens = path == "/v1/messages/count_tokens";
    const bool responses = path == "/v1/responses";
    if (!messages && !countTokens && !responses)
        return jsonReply(404, anthropicErrorBody(404, QStringLiteral("not found: %1")
                                                          .arg(QString::fromUtf8(path))));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (!document.isObject()) {
        const QString why =
            QStringLiteral("request body is not a JSON object: %1").arg(parseError.errorString());
        return jsonReply(400, responses ? openAIErrorBody(400, why) : anthropicErrorBody(400, why));
    }
    if (responses)
        return responsesReply(document.object(), body.size());
    if (countTokens)
        return jsonReply(200, QJsonDocument(QJsonObject{{QStringLiteral("input_tokens"),
                                                         roughTokens(body.size())}})
                                  .toJson(QJsonDocument::Compact));
    return messageReply(document.object(), body.size());
}

ScriptedReply ScriptedModel::messageReply(const QJsonObject &request, qsizetype requestBytes) const
{
    const ScriptedStep &step = select(request);
    ScriptedReply reply;
    reply.delay = step.delay;
    reply.eventDelay = step.eventDelay;
    reply.dropAfterEvents = step.dropAfterEvents;
    reply.hold = step.hold;
    if (step.error) {
        const ScriptedError &error = *step.error;
        errorReply(reply, error);
        reply.body = anthropicErrorBody(
            error.type.isEmpty() ? anthropicErrorType(error.status) : error.type, error.message);
        return reply;
    }

    QJsonArray content;
    if (!step.text.isEmpty())
        content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                   {QStringLiteral("text"), step.text}});
    qsizetype outputBytes = step.text.toUtf8().size();
    const QStringList offered = offeredTools(request.value(QStringLiteral("tools")).toArray());
    for (const ScriptedToolUse &scripted : step.toolUses) {
        const ScriptedToolUse use = forOfferedTools(scripted, offered);
        content.append(
            QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                        {QStringLiteral("id"), use.id.isEmpty() ? randomId(u"toolu_") : use.id},
                        {QStringLiteral("name"), use.name},
                        {QStringLiteral("input"), use.input}});
        outputBytes += QJsonDocument(use.input).toJson(QJsonDocument::Compact).size();
    }
    const qint64 input = step.inputTokens.value_or(roughTokens(requestBytes));
    const qint64 output = step.outputTokens.value_or(roughTokens(outputBytes));
    const QString model =
        request.value(QStringLiteral("model")).toString(QStringLiteral("scripted"));
    const QString stopReason =
        step.toolUses.isEmpty() ? QStringLiteral("end_turn") : QStringLiteral("tool_use");
    QJsonObject message{{QStringLiteral("id"), randomId(u"msg_")},
                        {QStringLiteral("type"), QStringLiteral("message")},
                        {QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("model"), model},
                        {QStringLiteral("content"), content},
                        {QStringLiteral("stop_reason"), stopReason},
                        {QStringLiteral("stop_sequence"), QJsonValue()},
                        {QStringLiteral("usage"), usageObject(input, output)}};

    if (!request.value(QStringLiteral("stream")).toBool()) {
        reply.headers = jsonHeaders;
        reply.body = QJsonDocument(message).toJson(QJsonDocument::Compact);
        return reply;
    }

    reply.streamed = true;
    reply.headers = streamHeaders;
    message.insert(QStringLiteral("content"), QJsonArray());
    message.insert(QStringLiteral("stop_reason"), QJsonValue());
    message.insert(QStringLiteral("usage"), usageObject(input, 1));
    reply.events.append(
        encodeSseEvent("message_start", {{QStringLiteral("type"), QStringLiteral("message_start")},
                                         {QStringLiteral("message"), message}}));
    for (qsizetype index = 0; index < content.size(); ++index) {
        QJsonObject block = content[index].toObject();
        const bool isText = block.value(QStringLiteral("type")).toString() == QLatin1String("text");
        const QJsonObject delta =
            isText ? QJsonObject{{QStringLiteral("type"), QStringLiteral("text_delta")},
                                 {QStringLiteral("text"), block.value(QStringLiteral("text"))}}
                   : QJsonObject{{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                                 {QStringLiteral("partial_json"),
                                  QString::fromUtf8(
                                      QJsonDocument(block.value(QStringLiteral("input")).toObject())
                                          .toJson(QJsonDocument::Compact))}};
        block.insert(isText ? QStringLiteral("text") : QStringLiteral("input"),
                     isText ? QJsonValue(QString()) : QJsonValue(QJsonObject()));
        reply.events.append(encodeSseEvent(
            "content_block_start", {{QStringLiteral("type"), QStringLiteral("content_block_start")},
                                    {QStringLiteral("index"), index},
                                    {QStringLiteral("content_block"), block}}));
        reply.events.append(encodeSseEvent(
            "content_block_delta", {{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                                    {QStringLiteral("index"), index},
                                    {QStringLiteral("delta"), delta}}));
        reply.events.append(encodeSseEvent(
            "content_block_stop", {{QStringLiteral("type"), QStringLiteral("content_block_stop")},
                                   {QStringLiteral("index"), index}}));
    }
    reply.events.append(encodeSseEvent(
        "message_delta",
        {{QStringLiteral("type"), QStringLiteral("message_delta")},
         {QStringLiteral("delta"), QJsonObject{{QStringLiteral("stop_reason"), stopReason},
                                               {QStringLiteral("stop_sequence"), QJsonValue()}}},
         {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"), output}}}}));
    reply.events.append(
        encodeSseEvent("message_stop", {{QStringLiteral("type"), QStringLiteral("message_stop")}}));
    return reply;
}

} // namespace arizuko::gateway
