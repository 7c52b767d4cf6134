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

    void priceTableKnowsFamiliesNotStrangers()
    {
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
