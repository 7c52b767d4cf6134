// The gateway over real loopback sockets: the gateway on 127.0.0.2, its
// one client on 127.0.0.3, and a real upstream (the scripted model served
// over HTTP on 127.0.0.1) that logs what reaches it.

#include "gateway/model_gateway.h"
#include "gateway/scripted_server.h"
#include "http_test_client.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace arizuko;
using namespace arizuko::gateway;
using namespace arizuko::gateway::testing;

Q_DECLARE_METATYPE(arizuko::gateway::ModelApi)

namespace {

const QHostAddress gatewayAddress(QStringLiteral("127.0.0.2"));
const QHostAddress guestAddress(QStringLiteral("127.0.0.3"));
const QByteArray apiKey = "sk-ant-api03-CANARY-real-key-never-in-the-guest";

const QByteArray upstreamScript = R"({
  "name": "upstream",
  "exchanges": [
    {"prompt": "e401", "steps": [{"error": {"status": 401, "message": "invalid x-api-key"}}]},
    {"prompt": "e429", "steps": [{"error": {"status": 429, "message": "slow down"}}]},
    {"prompt": "e500", "steps": [{"error": {"status": 500, "message": "boom"}}]},
    {"prompt": "drop", "steps": [{"text": "partial answer", "drop_after_events": 2}]},
    {"prompt": "slow", "steps": [{"text": "slow answer", "event_delay_ms": 150}]},
    {"prompt": "held", "steps": [{"text": "held answer", "hold": "h1"}]},
    {"prompt": "*", "steps": [{"text": "hello from upstream", "usage": {"input_tokens": 100, "output_tokens": 10}}]}]
})";

std::shared_ptr<const ScriptedModel> script()
{
    auto model = ScriptedModel::load(upstreamScript);
    if (!model)
        qFatal("%s", qPrintable(model.error().message));
    return std::make_shared<const ScriptedModel>(std::move(*model));
}

ClientRequest messages(const QByteArray &token, const QString &prompt,
                       const QString &model = QStringLiteral("claude-sonnet-4-5-20250929"))
{
    ClientRequest request;
    request.headers = {
        {"x-api-key", token},
        {"anthropic-version", "2023-06-01"},
        {"anthropic-beta", "claude-code-20250219,fine-grained-tool-streaming-2025-05-14"},
        {"Content-Type", "application/json"}};
    request.body = messagesBody(prompt, model);
    return request;
}

// What Codex sends: the turn's token as its env_key's bearer.
ClientRequest responses(const QByteArray &token, const QString &prompt,
                        const QString &model = QStringLiteral("gpt-5.4"))
{
    ClientRequest request;
    request.target = "/v1/responses";
    request.headers = {{"Authorization", "Bearer " + token},
                       {"Content-Type", "application/json"},
                       {"Accept", "text/event-stream"},
                       {"originator", "codex_exec"},
                       {"OpenAI-Organization", "org-from-the-guest"},
                       {"x-api-key", token}};
    request.body = responsesBody(prompt, model);
    return request;
}

// The same request in either API, with the provider whose credential it needs.
ClientRequest requestIn(ModelApi api, const QByteArray &token, const QString &prompt)
{
    return api == ModelApi::AnthropicMessages ? messages(token, prompt) : responses(token, prompt);
}

ProviderKind providerOf(ModelApi api)
{
    return api == ModelApi::AnthropicMessages ? ProviderKind::AnthropicApiKey
                                              : ProviderKind::OpenAIApiKey;
}

} // namespace

class TestModelGateway final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedServer> m_upstream;
    QList<QJsonObject> m_upstreamLog;

    QUrl upstreamUrl() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_upstream->port()));
    }

    // `models`: what the folder allows (empty: the defaults).
    std::unique_ptr<ModelGateway> gateway(ProviderKind kind, const QByteArray &token,
                                          std::optional<QUrl> upstream = std::nullopt,
                                          const QStringList &models = {})
    {
        GatewayOptions options;
        options.listenAddress = gatewayAddress;
        options.client = guestAddress;
        options.token = token;
        options.provider.kind = kind;
        options.provider.upstream = upstream.value_or(upstreamUrl());
        options.provider.credential = kind == ProviderKind::Demo ? QByteArray() : apiKey;
        options.provider.script = script();
        options.provider.requests.models = models;
        auto created = std::make_unique<ModelGateway>(options);
        const Result<void> listening = created->listen();
        if (!listening)
            qFatal("%s", qPrintable(listening.error().message));
        return created;
    }

private slots:
    void init()
    {
        m_upstreamLog.clear();
        m_upstream = std::make_unique<ScriptedServer>(script(), HttpServerOptions{});
        QVERIFY(m_upstream->listen());
        connect(m_upstream.get(), &ScriptedServer::requestLogged, this,
                [this](const QJsonObject &entry) { m_upstreamLog.append(entry); });
    }

    void cleanup() { m_upstream.reset(); }

    void turnTokensAreRandomAndLong()
    {
        const QByteArray first = newTurnToken();
        QVERIFY(first.size() >= 32); // >= 128 bits in hex
        QVERIFY(first != newTurnToken());
    }

    void wrongTokenIsRefused()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        const ClientReply reply = sendRequest(gatewayAddress, served->port(),
                                              messages("not-the-token", QStringLiteral("hi")));
        QCOMPARE(reply.status, 401);
        QCOMPARE(QJsonDocument::fromJson(reply.body)
                     .object()
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("authentication_error"));
        QCOMPARE(refused.size(), 1);
        QCOMPARE(refused.first().first().toJsonObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("token"));
        QVERIFY(m_upstreamLog.isEmpty());
        // A bearer token is read too, and a wrong one refused alike.
        ClientRequest bearer = messages({}, QStringLiteral("hi"));
        // One character off (a hex token ends in '0' one time in 16).
        const QByteArray wrong = token.left(token.size() - 1) + (token.endsWith('0') ? "1" : "0");
        bearer.headers[0] = {"Authorization", "Bearer " + wrong};
        QCOMPARE(sendRequest(gatewayAddress, served->port(), bearer).status, 401);
    }

    void anotherLiveTurnsTokenIsRefused()
    {
        const QByteArray mine = newTurnToken();
        const QByteArray theirs = newTurnToken();
        auto first = gateway(ProviderKind::Demo, mine);
        auto second = gateway(ProviderKind::Demo, theirs);
        QCOMPARE(sendRequest(gatewayAddress, first->port(), messages(theirs, QStringLiteral("hi")))
                     .status,
                 401);
        QCOMPARE(
            sendRequest(gatewayAddress, first->port(), messages(mine, QStringLiteral("hi"))).status,
            200);
        ClientRequest bearer = messages({}, QStringLiteral("hi"));
        bearer.headers[0] = {"Authorization", "Bearer " + mine};
        QCOMPARE(sendRequest(gatewayAddress, first->port(), bearer).status, 200);
    }

    void nothingIsServedAfterClose()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::Demo, token);
        const quint16 port = served->port();
        QCOMPARE(sendRequest(gatewayAddress, port, messages(token, QStringLiteral("hi"))).status,
                 200);
        served->close();
        const ClientReply reply =
            sendRequest(gatewayAddress, port, messages(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 0);
        QVERIFY(reply.closed);
        QVERIFY(!served->listen());
    }

    void closeCutsAStreamUnderWay()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        QTimer::singleShot(200, served.get(), [&served] { served->close(); });
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("slow")));
        QVERIFY(reply.closed);
        QVERIFY(!reply.complete);
    }

    void anotherPeerGetsNothing()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::Demo, token);
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("hi")),
                        QHostAddress(QStringLiteral("127.0.0.4")));
        QCOMPARE(reply.status, 0);
        QVERIFY(reply.closed);
        QVERIFY(reply.rawHead.isEmpty());
        QTRY_COMPARE(refused.size(), 1);
        QCOMPARE(refused.first().first().toJsonObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("peer"));
    }

    // A step's hold keeps its reply until the test releases the name on
    // the scripted server; the gateway never forwards a release.
    void aHeldReplyWaitsForItsRelease()
    {
        const QHostAddress upstream(QStringLiteral("127.0.0.1"));
        const ClientReply waiting = sendRequest(
            upstream, m_upstream->port(), messages({}, QStringLiteral("held")), guestAddress, 1500);
        QVERIFY(waiting.timedOut);
        QCOMPARE(waiting.status, 0);

        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        ClientRequest viaGateway = messages(token, QStringLiteral("x"));
        viaGateway.target = "/script/release/h1";
        QCOMPARE(sendRequest(gatewayAddress, served->port(), viaGateway).status, 404);

        ClientRequest release;
        release.target = "/script/release/h1";
        QTimer::singleShot(300, this, [&] {
            const ClientReply released = sendRequest(upstream, m_upstream->port(), release);
            QCOMPARE(released.status, 200);
        });
        const ClientReply held =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("held")));
        QCOMPARE(held.status, 200);
        QVERIFY(held.complete);
        QVERIFY(held.body.contains("held answer"));
        QVERIFY2(held.totalMs >= 250, qPrintable(QString::number(held.totalMs)));
        // Released once, the name holds nothing more.
        const ClientReply again =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("held")));
        QCOMPARE(again.status, 200);
        QVERIFY2(again.totalMs < 250, qPrintable(QString::number(again.totalMs)));
    }

    void onlyModelPathsAreServed()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        ClientRequest probe;
        probe.method = "HEAD";
        probe.target = "/api/hello";
        const ClientReply hello = sendRequest(gatewayAddress, served->port(), probe);
        QCOMPARE(hello.status, 200);
        QVERIFY(hello.complete);
        ClientRequest other = messages(token, QStringLiteral("hi"));
        other.target = "/admin";
        QCOMPARE(sendRequest(gatewayAddress, served->port(), other).status, 404);
        other.target = "/v1/../admin";
        QCOMPARE(sendRequest(gatewayAddress, served->port(), other).status, 404);
        QVERIFY(m_upstreamLog.isEmpty());
    }

    void apiKeyReachesUpstreamAndNeverTheGuest()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.complete);
        QVERIFY(reply.body.contains("hello from upstream"));
        QVERIFY(!reply.rawHead.contains(apiKey) && !reply.body.contains(apiKey));
        QCOMPARE(m_upstreamLog.size(), 1);
        const QJsonObject seen = m_upstreamLog.first();
        QCOMPARE(seen.value(QStringLiteral("path")).toString(),
                 QStringLiteral("/v1/messages?beta=true"));
        const QJsonObject headers = seen.value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("x-api-key")).toString().toUtf8(), apiKey);
        QVERIFY(!headers.contains(QStringLiteral("authorization")));
        QCOMPARE(headers.value(QStringLiteral("anthropic-version")).toString(),
                 QStringLiteral("2023-06-01"));
        QVERIFY(!QJsonDocument(seen).toJson().contains(token));
    }

    void oauthTokenGoesAsBearerWithItsBeta()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::OAuthToken, token);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 200);
        QVERIFY(!reply.rawHead.contains(apiKey) && !reply.body.contains(apiKey));
        QCOMPARE(m_upstreamLog.size(), 1);
        const QJsonObject headers =
            m_upstreamLog.first().value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("authorization")).toString().toUtf8(),
                 "Bearer " + apiKey);
        QVERIFY(!headers.contains(QStringLiteral("x-api-key")));
        const QStringList betas =
            headers.value(QStringLiteral("anthropic-beta")).toString().split(QLatin1Char(','));
        QVERIFY(betas.contains(QStringLiteral("oauth-2025-04-20")));
        QVERIFY(betas.contains(QStringLiteral("claude-code-20250219")));
        QVERIFY(!QJsonDocument(m_upstreamLog.first()).toJson().contains(token));
    }

    void streamingIsUnbuffered()
    {
        // Nine events 150 ms apart: the whole reply takes over a second; the
        // first event must reach the guest long before the upstream is done.
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::AnthropicApiKey, token);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("slow")));
        QVERIFY(reply.complete);
        QVERIFY2(reply.totalMs >= 700, qPrintable(QString::number(reply.totalMs)));
        QVERIFY2(reply.firstBodyMs >= 0 && reply.firstBodyMs < 300,
                 qPrintable(QStringLiteral("first event after %1 ms of %2")
                                .arg(reply.firstBodyMs)
                                .arg(reply.totalMs)));
        QVERIFY(reply.body.startsWith("event: message_start"));
        QVERIFY(reply.body.contains("event: message_stop"));
    }

    void usageIsSummedAndPriced()
    {
        const QByteArray token = newTurnToken();
        auto demo = gateway(ProviderKind::Demo, token);
        QSignalSpy changed(demo.get(), &ModelGateway::usageChanged);
        QSignalSpy exchanged(demo.get(), &ModelGateway::exchanged);
        for (int round = 0; round < 2; ++round)
            QCOMPARE(
                sendRequest(gatewayAddress, demo->port(), messages(token, QStringLiteral("hi")))
                    .status,
                200);
        QTRY_COMPARE(demo->usage().responses, 2);
        QCOMPARE(demo->usage().inputTokens, 200);
        QCOMPARE(demo->usage().outputTokens, 20);
        QCOMPARE(demo->usage().costUsd, std::optional<double>(0.0));
        QVERIFY(!changed.isEmpty());
        QTRY_COMPARE(exchanged.size(), 2);
        const QJsonObject summary = exchanged.first().first().toJsonObject();
        QCOMPARE(summary.value(QStringLiteral("status")).toInt(), 200);
        QCOMPARE(summary.value(QStringLiteral("output_tokens")).toInt(), 10);
        QVERIFY(!QJsonDocument(summary).toJson().contains(token));
        demo->close();

        auto priced = gateway(ProviderKind::AnthropicApiKey, token);
        for (int round = 0; round < 2; ++round)
            QCOMPARE(
                sendRequest(gatewayAddress, priced->port(), messages(token, QStringLiteral("hi")))
                    .status,
                200);
        QTRY_COMPARE(priced->usage().responses, 2);
        QVERIFY(priced->usage().costUsd);
        QCOMPARE(*priced->usage().costUsd, (200 * 3.0 + 20 * 15.0) / 1e6);
        QCOMPARE(priced->usage().toJson().value(QStringLiteral("cost_usd")).toDouble(),
                 (200 * 3.0 + 20 * 15.0) / 1e6);
        priced->close();

        // A folder that allows a model of its own (a --model-url server).
        auto unknown = gateway(ProviderKind::AnthropicApiKey, token, std::nullopt,
                               {QStringLiteral("my-local-model")});
        QCOMPARE(
            sendRequest(gatewayAddress, unknown->port(),
                        messages(token, QStringLiteral("hi"), QStringLiteral("my-local-model")))
                .status,
            200);
        QTRY_COMPARE(unknown->usage().responses, 1);
        QCOMPARE(unknown->usage().inputTokens, 100);
        QVERIFY(!unknown->usage().costUsd);
        QVERIFY(unknown->usage().toJson().value(QStringLiteral("cost_usd")).isNull());
    }

    void upstreamErrorsReachTheGuestAndTheTranscript_data()
    {
        QTest::addColumn<ModelApi>("api");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("sentence");
        for (const ModelApi api : {ModelApi::AnthropicMessages, ModelApi::OpenAIResponses}) {
            const char *name = api == ModelApi::AnthropicMessages ? "messages" : "responses";
            QTest::addRow("%s 401", name)
                << api << QStringLiteral("e401") << 401
                << QStringLiteral("refused the credential (401): invalid x-api-key");
            QTest::addRow("%s 429", name)
                << api << QStringLiteral("e429") << 429 << QStringLiteral("rate limited (429)");
            QTest::addRow("%s 500", name) << api << QStringLiteral("e500") << 500
                                          << QStringLiteral("failed the request (500): boom");
        }
    }

    void upstreamErrorsReachTheGuestAndTheTranscript()
    {
        QFETCH(ModelApi, api);
        QFETCH(QString, prompt);
        QFETCH(int, status);
        QFETCH(QString, sentence);
        const QByteArray token = newTurnToken();
        auto served = gateway(providerOf(api), token);
        QSignalSpy failed(served.get(), &ModelGateway::upstreamFailed);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), requestIn(api, token, prompt));
        QCOMPARE(reply.status, status);
        // Each API's own error shape reaches the agent as the upstream sent it.
        const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
        QVERIFY2(body.value(QStringLiteral("error")).toObject().contains(QStringLiteral("message")),
                 reply.body.constData());
        if (api == ModelApi::AnthropicMessages)
            QCOMPARE(body.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().value<Error>().message;
        QVERIFY2(message.contains(sentence), qPrintable(message));
        QVERIFY(!message.contains(QString::fromLatin1(apiKey)));
    }

    void dropMidStreamClosesTheGuestConnection_data()
    {
        QTest::addColumn<ModelApi>("api");
        QTest::addColumn<QByteArray>("firstEvent");
        QTest::newRow("messages") << ModelApi::AnthropicMessages << QByteArray("message_start");
        QTest::newRow("responses") << ModelApi::OpenAIResponses << QByteArray("response.created");
    }

    void dropMidStreamClosesTheGuestConnection()
    {
        QFETCH(ModelApi, api);
        QFETCH(QByteArray, firstEvent);
        const QByteArray token = newTurnToken();
        auto served = gateway(providerOf(api), token);
        QSignalSpy failed(served.get(), &ModelGateway::upstreamFailed);
        const ClientReply reply = sendRequest(gatewayAddress, served->port(),
                                              requestIn(api, token, QStringLiteral("drop")));
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.closed);
        QVERIFY(!reply.complete);
        QVERIFY(reply.body.contains(firstEvent));
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().value<Error>().message;
        QVERIFY2(message.contains(QStringLiteral("dropped mid-response")), qPrintable(message));
    }

    void openAIKeyReachesTheResponsesApiAndNeverTheGuest()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::OpenAIApiKey, token);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), responses(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.complete);
        QVERIFY(reply.body.startsWith("event: response.created"));
        QVERIFY(reply.body.contains("hello from upstream"));
        QVERIFY(reply.body.contains("event: response.completed"));
        QVERIFY(!reply.rawHead.contains(apiKey) && !reply.body.contains(apiKey));
        QCOMPARE(m_upstreamLog.size(), 1);
        const QJsonObject seen = m_upstreamLog.first();
        QCOMPARE(seen.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/responses"));
        const QJsonObject headers = seen.value(QStringLiteral("headers")).toObject();
        QCOMPARE(headers.value(QStringLiteral("authorization")).toString().toUtf8(),
                 "Bearer " + apiKey);
        QCOMPARE(headers.value(QStringLiteral("originator")).toString(),
                 QStringLiteral("codex_exec"));
        // The guest's own credential and organisation headers stay here.
        QVERIFY(!headers.contains(QStringLiteral("x-api-key")));
        QVERIFY(!headers.contains(QStringLiteral("openai-organization")));
        QVERIFY(!QJsonDocument(seen).toJson().contains(token));
    }

    void responsesWithAWrongTokenAreRefused()
    {
        const QByteArray token = newTurnToken();
        auto served = gateway(ProviderKind::OpenAIApiKey, token);
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        const QByteArray wrong = token.left(token.size() - 1) + (token.endsWith('0') ? "1" : "0");
        QCOMPARE(sendRequest(gatewayAddress, served->port(), responses(wrong, QStringLiteral("hi")))
                     .status,
                 401);
        ClientRequest none = responses(token, QStringLiteral("hi"));
        none.headers = {{"Content-Type", "application/json"}};
        QCOMPARE(sendRequest(gatewayAddress, served->port(), none).status, 401);
        QCOMPARE(refused.size(), 2);
        QCOMPARE(refused.first().first().toJsonObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("token"));
        QVERIFY(m_upstreamLog.isEmpty());
    }

    void aCredentialReachesOnlyItsOwnApi()
    {
        const QByteArray token = newTurnToken();
        auto anthropic = gateway(ProviderKind::AnthropicApiKey, token);
        const ClientReply toOpenAI =
            sendRequest(gatewayAddress, anthropic->port(), responses(token, QStringLiteral("hi")));
        QCOMPARE(toOpenAI.status, 404);
        QVERIFY2(toOpenAI.body.contains("does not speak the OpenAI Responses API"),
                 toOpenAI.body.constData());
        auto openAI = gateway(ProviderKind::OpenAIApiKey, token);
        QCOMPARE(sendRequest(gatewayAddress, openAI->port(), messages(token, QStringLiteral("hi")))
                     .status,
                 404);
        QVERIFY(m_upstreamLog.isEmpty());
        // The demo model answers both.
        auto demo = gateway(ProviderKind::Demo, token);
        QCOMPARE(sendRequest(gatewayAddress, demo->port(), responses(token, QStringLiteral("hi")))
                     .status,
                 200);
        QCOMPARE(
            sendRequest(gatewayAddress, demo->port(), messages(token, QStringLiteral("hi"))).status,
            200);
    }

    void responsesUsageIsReadFromResponseCompletedAndPriced()
    {
        const QByteArray token = newTurnToken();
        auto priced = gateway(ProviderKind::OpenAIApiKey, token);
        QSignalSpy exchanged(priced.get(), &ModelGateway::exchanged);
        for (int round = 0; round < 2; ++round)
            QCOMPARE(
                sendRequest(gatewayAddress, priced->port(), responses(token, QStringLiteral("hi")))
                    .status,
                200);
        QTRY_COMPARE(priced->usage().responses, 2);
        QCOMPARE(priced->usage().inputTokens, 200);
        QCOMPARE(priced->usage().outputTokens, 20);
        QVERIFY(priced->usage().costUsd);
        // gpt-5.4: $2.50 in, $15 out per million.
        QCOMPARE(*priced->usage().costUsd, (200 * 2.5 + 20 * 15.0) / 1e6);
        QTRY_COMPARE(exchanged.size(), 2);
        const QJsonObject summary = exchanged.first().first().toJsonObject();
        QCOMPARE(summary.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/responses"));
        QCOMPARE(summary.value(QStringLiteral("model")).toString(), QStringLiteral("gpt-5.4"));
        QCOMPARE(summary.value(QStringLiteral("output_tokens")).toInt(), 10);
    }

    void unreachableUpstreamIsABadGateway()
    {
        const QByteArray token = newTurnToken();
        const quint16 deadPort = m_upstream->port();
        m_upstream->close();
        auto served = gateway(ProviderKind::AnthropicApiKey, token,
                              QUrl(QStringLiteral("http://127.0.0.1:%1").arg(deadPort)));
        QSignalSpy failed(served.get(), &ModelGateway::upstreamFailed);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 502);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY(failed.first().first().value<Error>().message.contains(
            QStringLiteral("could not reach")));
    }

    // An upstream that answers with a redirect to another server: the
    // credential must never follow it there (the gateway's calls go out
    // through https::send, which follows no redirect).
    void aRedirectIsNeverFollowed()
    {
        QTcpServer redirecting;
        QVERIFY(redirecting.listen(QHostAddress::LocalHost));
        const QByteArray target =
            "http://127.0.0.1:" + QByteArray::number(m_upstream->port()) + "/v1/messages";
        connect(&redirecting, &QTcpServer::newConnection, this, [&redirecting, target] {
            QTcpSocket *socket = redirecting.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, target] {
                socket->readAll();
                socket->write("HTTP/1.1 307 Temporary Redirect\r\nLocation: " + target +
                              "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                socket->disconnectFromHost();
            });
        });
        const QByteArray token = newTurnToken();
        auto served =
            gateway(ProviderKind::AnthropicApiKey, token,
                    QUrl(QStringLiteral("http://127.0.0.1:%1").arg(redirecting.serverPort())));
        QSignalSpy failed(served.get(), &ModelGateway::upstreamFailed);
        const ClientReply reply =
            sendRequest(gatewayAddress, served->port(), messages(token, QStringLiteral("hi")));
        QCOMPARE(reply.status, 502);
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().value<Error>().message;
        QVERIFY2(message.contains(QStringLiteral("redirect (307)")), qPrintable(message));
        QVERIFY2(m_upstreamLog.isEmpty(), "the redirect's target got the request");
    }

    void demoScriptFailuresReadLikeRealOnesInTheResponsesApi()
    {
        const QByteArray token = newTurnToken();
        auto demo = gateway(ProviderKind::Demo, token);
        QSignalSpy failed(demo.get(), &ModelGateway::upstreamFailed);
        const ClientReply refused =
            sendRequest(gatewayAddress, demo->port(), responses(token, QStringLiteral("e401")));
        QCOMPARE(refused.status, 401);
        QCOMPARE(QJsonDocument::fromJson(refused.body)
                     .object()
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("code"))
                     .toString(),
                 QStringLiteral("invalid_api_key"));
        const ClientReply dropped =
            sendRequest(gatewayAddress, demo->port(), responses(token, QStringLiteral("drop")));
        QVERIFY(dropped.closed && !dropped.complete);
        QTRY_COMPARE(failed.size(), 2);
        QVERIFY(failed[0].first().value<Error>().message.contains(
            QStringLiteral("refused the credential (401)")));
        QVERIFY(failed[1].first().value<Error>().message.contains(
            QStringLiteral("dropped mid-response")));
    }

    void demoScriptFailuresReadLikeRealOnes()
    {
        const QByteArray token = newTurnToken();
        auto demo = gateway(ProviderKind::Demo, token);
        QSignalSpy failed(demo.get(), &ModelGateway::upstreamFailed);
        QCOMPARE(sendRequest(gatewayAddress, demo->port(), messages(token, QStringLiteral("e429")))
                     .status,
                 429);
        const ClientReply dropped =
            sendRequest(gatewayAddress, demo->port(), messages(token, QStringLiteral("drop")));
        QVERIFY(dropped.closed && !dropped.complete);
        QTRY_COMPARE(failed.size(), 2);
        QVERIFY(failed[0].first().value<Error>().message.contains(
            QStringLiteral("rate limited (429)")));
        QVERIFY(failed[1].first().value<Error>().message.contains(
            QStringLiteral("dropped mid-response")));
    }
};

QTEST_GUILESS_MAIN(TestModelGateway)
#include "test_model_gateway.moc"
