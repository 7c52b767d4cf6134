// The scripted model without sockets: loading and its errors, which step
// answers which conversation, and replies that parse back as the API's.

#include "gateway/model_usage.h"
#include "gateway/scripted_model.h"
#include "gateway/sse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace arizuko::gateway;

namespace {

// No apostrophes in raw strings: moc would read one as a character literal.
const QByteArray script = R"({
  "name": "test",
  "exchanges": [
    {"prompt": "Hello", "steps": [
      {"text": "I will run a command.", "tool_use": {"name": "Bash", "input": {"command": "uname -a"}, "id": "toolu_1"}},
      {"text": "Done: ${WHO}."}]},
    {"prompt": "*", "steps": [{"text": "any prompt"}]}],
  "fallback": {"text": "nothing scripted"}
})";

QJsonObject user(const QJsonValue &content)
{
    return {{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), content}};
}

QJsonObject assistant(const QString &text)
{
    return {{QStringLiteral("role"), QStringLiteral("assistant")},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), text}}}}};
}

QJsonObject textBlock(const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

QJsonObject toolResult()
{
    return user(QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_result")},
                                       {QStringLiteral("tool_use_id"), QStringLiteral("toolu_1")},
                                       {QStringLiteral("content"), QStringLiteral("Linux")}}});
}

QJsonObject request(const QJsonArray &messages, bool tools = true)
{
    QJsonObject object{{QStringLiteral("model"), QStringLiteral("claude-test")},
                       {QStringLiteral("messages"), messages}};
    if (tools)
        object.insert(QStringLiteral("tools"),
                      QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Bash")}}});
    return object;
}

// Responses API input items, as Codex sends them.
QJsonObject inputMessage(const QString &role, const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("message")},
            {QStringLiteral("role"), role},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), role == QLatin1String("assistant")
                                                                 ? QStringLiteral("output_text")
                                                                 : QStringLiteral("input_text")},
                                    {QStringLiteral("text"), text}}}}};
}

QJsonObject functionCall()
{
    return {{QStringLiteral("type"), QStringLiteral("function_call")},
            {QStringLiteral("name"), QStringLiteral("shell")},
            {QStringLiteral("arguments"), QStringLiteral("{}")},
            {QStringLiteral("call_id"), QStringLiteral("call_1")}};
}

QJsonObject functionOutput()
{
    return {{QStringLiteral("type"), QStringLiteral("function_call_output")},
            {QStringLiteral("call_id"), QStringLiteral("call_1")},
            {QStringLiteral("output"), QStringLiteral("Linux")}};
}

QByteArray responsesRequest(const QJsonArray &input, bool stream = false)
{
    return QJsonDocument(
               QJsonObject{{QStringLiteral("model"), QStringLiteral("gpt-5.4")},
                           {QStringLiteral("stream"), stream},
                           {QStringLiteral("tools"),
                            QJsonArray{QJsonObject{
                                {QStringLiteral("type"), QStringLiteral("function")},
                                {QStringLiteral("name"), QStringLiteral("exec_command")}}}},
                           {QStringLiteral("input"), input}})
        .toJson(QJsonDocument::Compact);
}

// A request of Codex 0.171.0's default model (gpt-6.2-sol), in its code
// mode: no `tools`, but an `additional_tools` item whose plain namespace
// holds the freeform `exec`, its description declaring the nested tools
// (as recorded, trimmed: tests/engine/gateway/requests/codex-default-model.json).
QByteArray codeModeRequest(const QJsonArray &conversation, bool stream = false)
{
    const QString description = QStringLiteral(
        "Run JavaScript code to orchestrate/compose tool calls\n"
        "### `apply_patch`\nexec tool declaration:\n```ts\n"
        "declare const tools: { apply_patch(input: string): Promise<unknown>; };\n```\n"
        "### `exec_command`\nexec tool declaration:\n```ts\n"
        "declare const tools: { exec_command(args: {\n  cmd: string;\n}): Promise<{}>; };\n```");
    const QJsonObject exec{{QStringLiteral("type"), QStringLiteral("custom")},
                           {QStringLiteral("name"), QStringLiteral("exec")},
                           {QStringLiteral("description"), description}};
    const QJsonObject wait{{QStringLiteral("type"), QStringLiteral("function")},
                           {QStringLiteral("name"), QStringLiteral("wait")}};
    QJsonArray input{
        QJsonObject{{QStringLiteral("type"), QStringLiteral("additional_tools")},
                    {QStringLiteral("role"), QStringLiteral("developer")},
                    {QStringLiteral("tools"),
                     QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("namespace")},
                                            {QStringLiteral("name"), QStringLiteral("functions")},
                                            {QStringLiteral("tools"), QJsonArray{exec, wait}}}}}}};
    for (const QJsonValue &item : conversation)
        input.append(item);
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("gpt-6.2-sol")},
                                     {QStringLiteral("stream"), stream},
                                     {QStringLiteral("input"), input}})
        .toJson(QJsonDocument::Compact);
}

QJsonArray outputOf(const ScriptedReply &reply)
{
    return QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("output")).toArray();
}

ScriptedModel loaded()
{
    auto model = ScriptedModel::load(script, {{QStringLiteral("WHO"), QStringLiteral("me")}});
    if (!model)
        qFatal("%s", qPrintable(model.error().message));
    return *model;
}

} // namespace

class TestScriptedModel final : public QObject
{
    Q_OBJECT

private slots:
    void loadErrorsNameThePlace_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("not JSON");
        QTest::newRow("unknown top field")
            << QByteArray(R"({"exchange": []})") << QStringLiteral("exchange: unknown field");
        QTest::newRow("bad step field")
            << QByteArray(R"({"exchanges": [{"steps": [{"txet": "x"}]}]})")
            << QStringLiteral("exchanges[0].steps[0].txet: unknown field");
        QTest::newRow("empty step")
            << QByteArray(R"({"exchanges": [{"steps": [{}]}]})")
            << QStringLiteral("exchanges[0].steps[0]: needs text, tool_use or error");
        QTest::newRow("tool without name")
            << QByteArray(
                   R"({"exchanges": [{"steps": [{"text": "a"}, {"tool_use": [{"input": {}}]}]}]})")
            << QStringLiteral("exchanges[0].steps[1].tool_use[0].name: must be a non-empty string");
        QTest::newRow("bad status")
            << QByteArray(R"({"fallback": {"error": {"status": 200}}})")
            << QStringLiteral("fallback.error.status");
        QTest::newRow("negative delay")
            << QByteArray(R"({"exchanges": [{"steps": [{"text": "a", "delay_ms": -1}]}]})")
            << QStringLiteral("exchanges[0].steps[0].delay_ms: must be a whole number >= 0");
        QTest::newRow("hold name")
            << QByteArray(R"({"exchanges": [{"steps": [{"text": "a", "hold": "a b"}]}]})")
            << QStringLiteral("exchanges[0].steps[0].hold: must be a name of letters, digits, "
                              "'_', '.' or '-'");
        QTest::newRow("unknown variable")
            << QByteArray(R"({"exchanges": [{"steps": [{"text": "go to ${NOWHERE}"}]}]})")
            << QStringLiteral("exchanges[0].steps[0].text: unknown variable ${NOWHERE}");
        QTest::newRow("no steps") << QByteArray(R"({"exchanges": [{"prompt": "x"}]})")
                                  << QStringLiteral(
                                         "exchanges[0].steps: must be a non-empty array");
    }

    void loadErrorsNameThePlace()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const auto model = ScriptedModel::load(json);
        QVERIFY(!model);
        QCOMPARE(model.error().code, QStringLiteral("gateway.bad-script"));
        QVERIFY2(model.error().message.contains(expected), qPrintable(model.error().message));
    }

    void variablesAreSubstituted()
    {
        const ScriptedModel model = loaded();
        QCOMPARE(model.exchanges().first().steps[1].text, QStringLiteral("Done: me."));
    }

    void freshPromptGetsFirstStep()
    {
        const ScriptedModel model = loaded();
        const ScriptedStep &step = model.select(request({user(QStringLiteral("hello there"))}));
        QCOMPARE(step.toolUses.size(), 1);
        QCOMPARE(step.toolUses.first().name, QStringLiteral("Bash"));
    }

    void toolRoundTripGetsNextStep()
    {
        const ScriptedModel model = loaded();
        const ScriptedStep &step = model.select(request(
            {user(QStringLiteral("HELLO")), assistant(QStringLiteral("run")), toolResult()}));
        QCOMPARE(step.text, QStringLiteral("Done: me."));
    }

    void pastTheLastStepGetsFallback()
    {
        const ScriptedModel model = loaded();
        const ScriptedStep &step =
            model.select(request({user(QStringLiteral("hello")), assistant(QStringLiteral("run")),
                                  toolResult(), assistant(QStringLiteral("done"))}));
        QCOMPARE(step.text, QStringLiteral("nothing scripted"));
    }

    void resumedConversationCountsFromTheNewPrompt()
    {
        // An earlier turn, then a new prompt wrapped in reminders, a tool
        // round trip and a reminder-only message Claude Code injected.
        const QJsonArray messages{
            user(QStringLiteral("something else entirely")),
            assistant(QStringLiteral("any prompt")),
            user(QJsonArray{textBlock(QStringLiteral("<system-reminder>context</system-reminder>")),
                            textBlock(QStringLiteral("now say hello"))}),
            assistant(QStringLiteral("run")),
            toolResult(),
            user(QStringLiteral("<system-reminder>\nfiles changed\n</system-reminder>")),
        };
        const ConversationPosition at = ScriptedModel::position(messages);
        QCOMPARE(at.prompt, QStringLiteral("now say hello"));
        QCOMPARE(at.step, 1);
        QCOMPARE(loaded().select(request(messages)).text, QStringLiteral("Done: me."));
    }

    void requestWithoutToolsNeverGetsAToolUse()
    {
        const ScriptedModel model = loaded();
        const ScriptedStep &step = model.select(request({user(QStringLiteral("hello"))}, false));
        QVERIFY(step.toolUses.isEmpty());
        QCOMPARE(step.text, QStringLiteral("nothing scripted"));
    }

    void streamedReplyParsesBack()
    {
        const ScriptedModel model = loaded();
        QJsonObject body = request({user(QStringLiteral("hello"))});
        body.insert(QStringLiteral("stream"), true);
        const ScriptedReply reply =
            model.reply("POST", "/v1/messages", QJsonDocument(body).toJson(QJsonDocument::Compact));
        QVERIFY(reply.streamed);
        QCOMPARE(reply.status, 200);
        SseReader reader;
        ResponseUsage usage;
        QList<QByteArray> names;
        QString text;
        QString partialJson;
        QString toolId;
        for (const QByteArray &bytes : reply.events) {
            // Fed a byte at a time: the reader must not care where a cut falls.
            for (const char byte : bytes) {
                for (const SseEvent &event : reader.feed(QByteArrayView(&byte, 1))) {
                    names.append(event.name);
                    usage.readEvent(event.name, event.data);
                    const QJsonObject data = QJsonDocument::fromJson(event.data).object();
                    QCOMPARE(data.value(QStringLiteral("type")).toString().toUtf8(), event.name);
                    const QJsonObject delta = data.value(QStringLiteral("delta")).toObject();
                    text += delta.value(QStringLiteral("text")).toString();
                    partialJson += delta.value(QStringLiteral("partial_json")).toString();
                    const QJsonObject block =
                        data.value(QStringLiteral("content_block")).toObject();
                    if (block.value(QStringLiteral("type")).toString() == QLatin1String("tool_use"))
                        toolId = block.value(QStringLiteral("id")).toString();
                    if (event.name == "message_delta")
                        QCOMPARE(delta.value(QStringLiteral("stop_reason")).toString(),
                                 QStringLiteral("tool_use"));
                }
            }
        }
        const QList<QByteArray> expected{
            "message_start",      "content_block_start", "content_block_delta",
            "content_block_stop", "content_block_start", "content_block_delta",
            "content_block_stop", "message_delta",       "message_stop"};
        QCOMPARE(names, expected);
        QCOMPARE(text, QStringLiteral("I will run a command."));
        QCOMPARE(QJsonDocument::fromJson(partialJson.toUtf8())
                     .object()
                     .value(QStringLiteral("command"))
                     .toString(),
                 QStringLiteral("uname -a"));
        QCOMPARE(toolId, QStringLiteral("toolu_1"));
        QVERIFY(usage.stopped());
        QVERIFY(usage.counts().input > 0);
        QVERIFY(usage.counts().output > 0);
        QCOMPARE(usage.model(), QStringLiteral("claude-test"));
    }

    void wholeReplyIsAMessage()
    {
        const ScriptedModel model = loaded();
        const ScriptedReply reply =
            model.reply("POST", "/v1/messages",
                        QJsonDocument(request({user(QStringLiteral("other"))})).toJson());
        QVERIFY(!reply.streamed);
        const QJsonObject message = QJsonDocument::fromJson(reply.body).object();
        QCOMPARE(message.value(QStringLiteral("type")).toString(), QStringLiteral("message"));
        QCOMPARE(message.value(QStringLiteral("stop_reason")).toString(),
                 QStringLiteral("end_turn"));
        QCOMPARE(message.value(QStringLiteral("content"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("text"))
                     .toString(),
                 QStringLiteral("any prompt"));
    }

    void sideRequestsAreAnswered()
    {
        const ScriptedModel model = loaded();
        QCOMPARE(model.reply("HEAD", "/api/hello", {}).status, 200);
        QCOMPARE(model.reply("GET", "/anything", {}).status, 200);
        const ScriptedReply count =
            model.reply("POST", "/v1/messages/count_tokens", R"({"messages":[]})");
        QCOMPARE(count.status, 200);
        QVERIFY(QJsonDocument::fromJson(count.body)
                    .object()
                    .value(QStringLiteral("input_tokens"))
                    .toInt() > 0);
        const ScriptedReply malformed = model.reply("POST", "/v1/messages", "{not json");
        QCOMPARE(malformed.status, 400);
        QCOMPARE(QJsonDocument::fromJson(malformed.body)
                     .object()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("error"));
        QCOMPARE(model.reply("POST", "/v1/other", "{}").status, 404);
    }

    void scriptedErrorIsAnthropicShaped()
    {
        auto model = ScriptedModel::load(
            R"({"fallback": {"error": {"status": 429, "message": "slow down", "should_retry": false}}})");
        QVERIFY(model);
        const ScriptedReply reply =
            model->reply("POST", "/v1/messages", QJsonDocument(request({})).toJson());
        QCOMPARE(reply.status, 429);
        const QJsonObject error =
            QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("type")).toString(),
                 QStringLiteral("rate_limit_error"));
        QCOMPARE(error.value(QStringLiteral("message")).toString(), QStringLiteral("slow down"));
        QCOMPARE(headerValue(reply.headers, "x-should-retry"), QByteArray("false"));
    }

    void demoScriptNeedsItsUrlsAndLabelsItself()
    {
        const auto missing = ScriptedModel::demo({});
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.contains(QStringLiteral("ALLOWED_URL")),
                 qPrintable(missing.error().message));
        const auto demo = ScriptedModel::demo(
            {{QStringLiteral("ALLOWED_URL"), QStringLiteral("http://allowed.test/")},
             {QStringLiteral("DENIED_URL"), QStringLiteral("http://denied.test/")}});
        QVERIFY2(demo, demo ? "" : qPrintable(demo.error().message));
        const QList<ScriptedStep> &steps = demo->exchanges().first().steps;
        QCOMPARE(steps.size(), 5);
        for (const ScriptedStep &step : steps)
            QVERIFY(step.text.startsWith(QStringLiteral("Demo model — scripted, no AI: ")));
        QVERIFY(demo->fallback().text.startsWith(QStringLiteral("Demo model — scripted, no AI: ")));
        for (qsizetype index = 0; index < 4; ++index)
            QCOMPARE(steps[index].toolUses.size(), 1);
        QVERIFY(steps[2]
                    .toolUses.first()
                    .input.value(QStringLiteral("command"))
                    .toString()
                    .contains(QStringLiteral("http://allowed.test/")));
        QVERIFY(steps[4].toolUses.isEmpty());
    }

    void responsesPositionCountsRunsOfModelItems()
    {
        // Context Codex injects whole, the prompt, then one step (text and
        // a call: one run of model items) and its output.
        const QJsonArray input{
            inputMessage(QStringLiteral("developer"), QStringLiteral("permissions")),
            inputMessage(
                QStringLiteral("user"),
                QStringLiteral(
                    "<environment_context>\n  <cwd>/home/agent</cwd>\n</environment_context>")),
            inputMessage(QStringLiteral("user"), QStringLiteral("hello there")),
            inputMessage(QStringLiteral("assistant"), QStringLiteral("I will run a command.")),
            functionCall(),
            functionOutput(),
        };
        const ConversationPosition at = ScriptedModel::responsesPosition(input);
        QCOMPARE(at.prompt, QStringLiteral("hello there"));
        QCOMPARE(at.step, 1);
        const ScriptedModel model = loaded();
        const ScriptedReply reply = model.reply("POST", "/v1/responses", responsesRequest(input));
        const QJsonObject response = QJsonDocument::fromJson(reply.body).object();
        QCOMPARE(response.value(QStringLiteral("object")).toString(), QStringLiteral("response"));
        const QJsonArray output = response.value(QStringLiteral("output")).toArray();
        QCOMPARE(output.size(), 1);
        QCOMPARE(output.first()
                     .toObject()
                     .value(QStringLiteral("content"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("text"))
                     .toString(),
                 QStringLiteral("Done: me."));
        // A bare string input is a fresh prompt.
        QJsonObject bare = QJsonDocument::fromJson(responsesRequest({})).object();
        bare.insert(QStringLiteral("input"), QStringLiteral("hello"));
        QCOMPARE(model.selectResponse(bare).toolUses.size(), 1);
    }

    void responsesStreamParsesBack()
    {
        const ScriptedModel model = loaded();
        const ScriptedReply reply =
            model.reply("POST", "/v1/responses",
                        responsesRequest(
                            {inputMessage(QStringLiteral("user"), QStringLiteral("hello"))}, true));
        QVERIFY(reply.streamed);
        QCOMPARE(reply.status, 200);
        SseReader reader;
        ResponseUsage usage;
        QList<QByteArray> names;
        QString text;
        QJsonObject call;
        for (const QByteArray &bytes : reply.events) {
            for (const SseEvent &event : reader.feed(bytes)) {
                names.append(event.name);
                usage.readEvent(event.name, event.data);
                const QJsonObject data = QJsonDocument::fromJson(event.data).object();
                QCOMPARE(data.value(QStringLiteral("type")).toString().toUtf8(), event.name);
                QCOMPARE(data.value(QStringLiteral("sequence_number")).toInt(), names.size() - 1);
                text += data.value(QStringLiteral("delta")).toString();
                const QJsonObject item = data.value(QStringLiteral("item")).toObject();
                if (event.name == "response.output_item.done" &&
                    item.value(QStringLiteral("type")).toString() == QLatin1String("function_call"))
                    call = item;
            }
        }
        const QList<QByteArray> expected{"response.created",
                                         "response.in_progress",
                                         "response.output_item.added",
                                         "response.content_part.added",
                                         "response.output_text.delta",
                                         "response.output_text.done",
                                         "response.content_part.done",
                                         "response.output_item.done",
                                         "response.output_item.added",
                                         "response.function_call_arguments.delta",
                                         "response.function_call_arguments.done",
                                         "response.output_item.done",
                                         "response.completed"};
        QCOMPARE(names, expected);
        // The text delta, then the call's arguments delta (the whole JSON).
        QVERIFY(text.startsWith(QStringLiteral("I will run a command.")));
        // The script's Bash call, as the shell tool Codex offers.
        QCOMPARE(call.value(QStringLiteral("name")).toString(), QStringLiteral("exec_command"));
        QCOMPARE(call.value(QStringLiteral("call_id")).toString(), QStringLiteral("toolu_1"));
        QCOMPARE(
            QJsonDocument::fromJson(call.value(QStringLiteral("arguments")).toString().toUtf8())
                .object(),
            QJsonObject({{QStringLiteral("cmd"), QStringLiteral("uname -a")}}));
        QVERIFY(usage.started());
        QVERIFY(usage.stopped());
        QVERIFY(usage.counts().input > 0);
        QVERIFY(usage.counts().output > 0);
        QCOMPARE(usage.model(), QStringLiteral("gpt-5.4"));
    }

    void aShellCallBecomesTheShellToolTheAgentOffers()
    {
        // pi offers "bash"; a tool the script names and the request offers
        // stays as it is, and so does an unknown one.
        const ScriptedModel model = loaded();
        QJsonObject body = request({user(QStringLiteral("hello"))});
        body.insert(QStringLiteral("tools"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("bash")}}});
        const QJsonObject message =
            QJsonDocument::fromJson(
                model.reply("POST", "/v1/messages", QJsonDocument(body).toJson()).body)
                .object();
        const QJsonObject use = message.value(QStringLiteral("content")).toArray().at(1).toObject();
        QCOMPARE(use.value(QStringLiteral("name")).toString(), QStringLiteral("bash"));
        QCOMPARE(use.value(QStringLiteral("input"))
                     .toObject()
                     .value(QStringLiteral("command"))
                     .toString(),
                 QStringLiteral("uname -a"));
        body.insert(QStringLiteral("tools"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Read")}}});
        const QJsonObject unchanged =
            QJsonDocument::fromJson(
                model.reply("POST", "/v1/messages", QJsonDocument(body).toJson()).body)
                .object();
        QCOMPARE(unchanged.value(QStringLiteral("content"))
                     .toArray()
                     .at(1)
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("Bash"));
    }

    void aToolInANamespaceIsCalledByItsNamespace()
    {
        // Codex offers an MCP server's tools as a namespace and answers
        // "unsupported call" to a call that names only the full name.
        auto model = ScriptedModel::load(
            R"({"exchanges": [{"prompt": "*", "steps": [{"tool_use": {
                    "name": "mcp__arizuko__send_message", "input": {"text": "hi"}}}]}]})");
        QVERIFY(model);
        QJsonObject body =
            QJsonDocument::fromJson(responsesRequest({user(QStringLiteral("go"))})).object();
        body.insert(QStringLiteral("tools"),
                    QJsonArray{QJsonObject{
                        {QStringLiteral("type"), QStringLiteral("namespace")},
                        {QStringLiteral("name"), QStringLiteral("mcp__arizuko")},
                        {QStringLiteral("tools"),
                         QJsonArray{QJsonObject{
                             {QStringLiteral("type"), QStringLiteral("function")},
                             {QStringLiteral("name"), QStringLiteral("send_message")}}}}}});
        const ScriptedReply reply =
            model->reply("POST", "/v1/responses", QJsonDocument(body).toJson());
        const QJsonObject call = QJsonDocument::fromJson(reply.body)
                                     .object()
                                     .value(QStringLiteral("output"))
                                     .toArray()
                                     .at(0)
                                     .toObject();
        QCOMPARE(call.value(QStringLiteral("type")).toString(), QStringLiteral("function_call"));
        QCOMPARE(call.value(QStringLiteral("name")).toString(), QStringLiteral("send_message"));
        QCOMPARE(call.value(QStringLiteral("namespace")).toString(),
                 QStringLiteral("mcp__arizuko"));
    }

    void codeModeRunsTheShellThroughExec()
    {
        const ScriptedModel model = loaded();
        const QJsonObject prompt = inputMessage(QStringLiteral("user"), QStringLiteral("hello"));
        const QJsonArray output =
            outputOf(model.reply("POST", "/v1/responses", codeModeRequest({prompt})));
        QCOMPARE(output.size(), 2);
        const QJsonObject call = output.at(1).toObject();
        QCOMPARE(call.value(QStringLiteral("type")).toString(), QStringLiteral("custom_tool_call"));
        // Called by its bare name: "functions" is the plain namespace.
        QCOMPARE(call.value(QStringLiteral("name")).toString(), QStringLiteral("exec"));
        QVERIFY(!call.contains(QStringLiteral("namespace")));
        QCOMPARE(call.value(QStringLiteral("call_id")).toString(), QStringLiteral("toolu_1"));
        QCOMPARE(call.value(QStringLiteral("input")).toString(),
                 QStringLiteral(R"(text(await tools.exec_command({"cmd":"uname -a"}));)"));

        // Its output answered, the script goes on.
        const QJsonObject output1{
            {QStringLiteral("type"), QStringLiteral("custom_tool_call_output")},
            {QStringLiteral("call_id"), QStringLiteral("toolu_1")},
            {QStringLiteral("output"), QStringLiteral("Linux")}};
        const QJsonArray next = outputOf(model.reply(
            "POST", "/v1/responses", codeModeRequest({prompt, output.at(0), call, output1})));
        QCOMPARE(next.size(), 1);
        QCOMPARE(next.at(0)
                     .toObject()
                     .value(QStringLiteral("content"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("text"))
                     .toString(),
                 QStringLiteral("Done: me."));
    }

    void codeModeStreamsTheExecInput()
    {
        const ScriptedModel model = loaded();
        const ScriptedReply reply = model.reply(
            "POST", "/v1/responses",
            codeModeRequest({inputMessage(QStringLiteral("user"), QStringLiteral("hello"))}, true));
        SseReader reader;
        QList<QByteArray> names;
        QString input;
        for (const QByteArray &bytes : reply.events) {
            for (const SseEvent &event : reader.feed(bytes)) {
                names.append(event.name);
                if (event.name == "response.custom_tool_call_input.done")
                    input = QJsonDocument::fromJson(event.data)
                                .object()
                                .value(QStringLiteral("input"))
                                .toString();
            }
        }
        QVERIFY(names.contains("response.custom_tool_call_input.delta"));
        QVERIFY(!names.contains("response.function_call_arguments.done"));
        QCOMPARE(input, QStringLiteral(R"(text(await tools.exec_command({"cmd":"uname -a"}));)"));
    }

    void codeModeCallsAnMcpToolThroughExec()
    {
        // An MCP tool Codex's exec may hold without declaring it (deferred).
        auto model = ScriptedModel::load(
            R"({"exchanges": [{"prompt": "*", "steps": [{"tool_use": {
                    "name": "mcp__arizuko__send_message", "input": {"text": "hi"}}}]}]})");
        QVERIFY(model);
        const QJsonArray output = outputOf(model->reply(
            "POST", "/v1/responses",
            codeModeRequest({inputMessage(QStringLiteral("user"), QStringLiteral("go"))})));
        QCOMPARE(output.at(0).toObject().value(QStringLiteral("input")).toString(),
                 QStringLiteral(R"(text(await tools.mcp__arizuko__send_message({"text":"hi"}));)"));
    }

    void responsesErrorsAreOpenAIShaped()
    {
        auto model = ScriptedModel::load(
            R"({"fallback": {"error": {"status": 429, "message": "slow down"}}})");
        QVERIFY(model);
        const ScriptedReply reply = model->reply("POST", "/v1/responses", responsesRequest({}));
        QCOMPARE(reply.status, 429);
        const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
        QVERIFY(!body.contains(QStringLiteral("type")));
        const QJsonObject error = body.value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("message")).toString(), QStringLiteral("slow down"));
        QCOMPARE(error.value(QStringLiteral("code")).toString(),
                 QStringLiteral("rate_limit_exceeded"));
        QCOMPARE(model->reply("POST", "/v1/responses", "{not json").status, 400);
    }

    void responsesUsageKeepsCachedTokensApart()
    {
        // response.completed as the API sends it: cached tokens are part of
        // input_tokens, reasoning tokens part of output_tokens.
        ResponseUsage usage;
        usage.readEvent("response.created",
                        R"({"type":"response.created","response":{"model":"gpt-5.4-2026-03-05"}})");
        QVERIFY(usage.started());
        QVERIFY(!usage.stopped());
        QVERIFY(usage.readEvent(
            "response.completed",
            R"({"type":"response.completed","response":{"model":"gpt-5.4-2026-03-05","usage":)"
            R"({"input_tokens":1000,"input_tokens_details":{"cached_tokens":400},)"
            R"("output_tokens":70,"output_tokens_details":{"reasoning_tokens":50},"total_tokens":1070}}})"));
        QVERIFY(usage.stopped());
        QCOMPARE(usage.counts().input, 600);
        QCOMPARE(usage.counts().cacheRead, 400);
        QCOMPARE(usage.counts().output, 70);
        QCOMPARE(usage.counts().cacheCreation, 0);
        const auto price = publishedPrice(usage.model());
        QVERIFY(price);
        QCOMPARE(price->cost(usage.counts()), (600 * 2.5 + 400 * 0.25 + 70 * 15.0) / 1e6);

        ResponseUsage failed;
        failed.readEvent(
            "response.failed",
            R"({"type":"response.failed","response":{"error":{"code":"server_error","message":"boom"}}})");
        QCOMPARE(failed.streamError(), QStringLiteral("server_error: boom"));
        ResponseUsage flat;
        flat.readEvent("error",
                       R"({"type":"error","code":"rate_limit_exceeded","message":"slow"})");
        QCOMPARE(flat.streamError(), QStringLiteral("rate_limit_exceeded: slow"));
    }

    void priceTableKnowsFamiliesNotStrangers()
    {
        QCOMPARE(publishedPrice(u"gpt-5.4")->output, 15.0);
        QCOMPARE(publishedPrice(u"gpt-4.1-2025-04-14")->input, 2.0);
        QVERIFY(!publishedPrice(u"gpt-9"));
        QVERIFY(publishedPrice(u"claude-sonnet-4-5-20250929"));
        QCOMPARE(publishedPrice(u"claude-sonnet-4-5-20250929")->input, 3.0);
        QCOMPARE(publishedPrice(u"claude-opus-4-6[1m]")->output, 25.0);
        QCOMPARE(publishedPrice(u"claude-opus-4-20250514")->output, 75.0);
        QVERIFY(!publishedPrice(u"my-local-model"));
        QVERIFY(
            !publishedPrice(u"claude-opus-5-5")); // not in the table: unknown, not Opus 5's price
    }
};

QTEST_GUILESS_MAIN(TestScriptedModel)
#include "test_scripted_model.moc"
