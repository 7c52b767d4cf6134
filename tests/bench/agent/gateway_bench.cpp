// The gateway's added time per streamed response: the same scripted
// upstream (`arizukoctl model serve`, another process) asked directly and
// through a ModelGateway (on its own thread here, as in the engine), in
// alternating rounds over kept-alive connections from 127.0.0.3.
// Prints one JSON object; tests/bench/agent/run reads it.

#include "gateway/model_gateway.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

using namespace arizuko::gateway;

namespace {

const QHostAddress guest(QStringLiteral("127.0.0.3"));

struct Sample
{
    double firstByteMs = 0;
    double totalMs = 0;
};

class BlockingClient
{
public:
    bool open(const QHostAddress &host, quint16 port)
    {
        return m_socket.bind(guest) &&
               (m_socket.connectToHost(host, port), m_socket.waitForConnected(5000));
    }

    // One request on the kept-alive connection; nullopt on any failure.
    std::optional<Sample> roundTrip(const QByteArray &request)
    {
        QElapsedTimer clock;
        clock.start();
        m_socket.write(request);
        if (!m_socket.waitForBytesWritten(5000))
            return std::nullopt;
        QByteArray buffer;
        Sample sample;
        qsizetype bodyStart = -1;
        for (;;) {
            if (!m_socket.waitForReadyRead(5000))
                return std::nullopt;
            buffer += m_socket.readAll();
            if (bodyStart < 0) {
                const qsizetype end = buffer.indexOf("\r\n\r\n");
                if (end < 0)
                    continue;
                if (!buffer.startsWith("HTTP/1.1 200"))
                    return std::nullopt;
                bodyStart = end + 4;
            }
            if (sample.firstByteMs == 0 && buffer.size() > bodyStart)
                sample.firstByteMs = double(clock.nsecsElapsed()) / 1e6;
            // SSE lines end in a bare \n, so only the last chunk of a chunked
            // body can end in "\r\n0\r\n\r\n".
            if (buffer.endsWith("\r\n0\r\n\r\n")) {
                sample.totalMs = double(clock.nsecsElapsed()) / 1e6;
                return sample;
            }
        }
    }

private:
    QTcpSocket m_socket;
};

double percentile(QList<double> values, double fraction)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values[qsizetype(fraction * double(values.size() - 1) + 0.5)];
}

QJsonObject summary(const QList<Sample> &samples)
{
    QList<double> first;
    QList<double> total;
    for (const Sample &sample : samples) {
        first.append(sample.firstByteMs);
        total.append(sample.totalMs);
    }
    return {{QStringLiteral("n"), samples.size()},
            {QStringLiteral("first_byte_median_ms"), percentile(first, 0.5)},
            {QStringLiteral("total_median_ms"), percentile(total, 0.5)},
            {QStringLiteral("total_p90_ms"), percentile(total, 0.9)}};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Gateway vs direct, per streamed response."));
    parser.addHelpOption();
    const QCommandLineOption upstreamOption(QStringLiteral("upstream"),
                                            QStringLiteral("The scripted upstream."),
                                            QStringLiteral("URL"));
    const QCommandLineOption countOption(QStringLiteral("n"), QStringLiteral("Requests per path."),
                                         QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption promptOption(
        QStringLiteral("prompt"), QStringLiteral("The prompt, which picks the script's reply."),
        QStringLiteral("TEXT"), QStringLiteral("instant"));
    parser.addOptions({upstreamOption, countOption, promptOption});
    parser.process(application);
    const QUrl upstream(parser.value(upstreamOption));
    const int count = parser.value(countOption).toInt();
    if (!upstream.isValid() || upstream.port() <= 0 || count <= 0) {
        std::fputs("gateway-bench: --upstream http://HOST:PORT and --n N > 0 are required\n",
                   stderr);
        return 2;
    }

    // The gateway lives on its own thread with its own event loop, as it
    // would in the engine; this thread only plays the guest.
    const QByteArray token = newTurnToken();
    QThread gatewayThread;
    QObject gatewayContext;
    gatewayContext.moveToThread(&gatewayThread);
    gatewayThread.start();
    std::unique_ptr<ModelGateway> gateway;
    quint16 gatewayPort = 0;
    QMetaObject::invokeMethod(&gatewayContext, [&] {
        GatewayOptions options;
        options.listenAddress = QHostAddress(QStringLiteral("127.0.0.2"));
        options.client = guest;
        options.token = token;
        options.provider.kind = ProviderKind::AnthropicApiKey;
        options.provider.upstream = upstream;
        options.provider.credential = "sk-ant-bench-key";
        gateway = std::make_unique<ModelGateway>(options);
        if (gateway->listen())
            gatewayPort = gateway->port();
    }, Qt::BlockingQueuedConnection);

    const QByteArray body =
        R"({"model":"claude-sonnet-4-5-20250929","max_tokens":1024,"stream":true,)"
        R"("tools":[{"name":"Bash","input_schema":{"type":"object"}}],)"
        R"("messages":[{"role":"user","content":")" +
        parser.value(promptOption).toUtf8() + R"("}]})";
    const auto request = [&body](const QByteArray &key) {
        return "POST /v1/messages?beta=true HTTP/1.1\r\nHost: bench\r\nx-api-key: " + key +
               "\r\nanthropic-version: 2023-06-01\r\nContent-Type: "
               "application/json\r\nContent-Length: " +
               QByteArray::number(body.size()) + "\r\n\r\n" + body;
    };
    BlockingClient direct;
    BlockingClient throughGateway;
    int status = 0;
    if (gatewayPort == 0 || !direct.open(QHostAddress(upstream.host()), quint16(upstream.port()))
        || !throughGateway.open(QHostAddress(QStringLiteral("127.0.0.2")), gatewayPort)) {
        std::fputs("gateway-bench: could not start the gateway or connect\n", stderr);
        status = 1;
    }
    QList<Sample> directSamples;
    QList<Sample> gatewaySamples;
    const QByteArray directRequest = request("sk-ant-bench-key");
    const QByteArray gatewayRequest = request(token);
    // A few unmeasured rounds warm both connections and the upstream's.
    for (int round = -10; round < count && status == 0; ++round) {
        // Alternate which goes first, so neither always follows the other.
        std::optional<Sample> a;
        std::optional<Sample> b;
        if (round % 2 == 0) {
            a = direct.roundTrip(directRequest);
            b = throughGateway.roundTrip(gatewayRequest);
        } else {
            b = throughGateway.roundTrip(gatewayRequest);
            a = direct.roundTrip(directRequest);
        }
        if (!a || !b) {
            std::fprintf(stderr, "gateway-bench: round %d failed (%s)\n", round,
                         !a ? "direct" : "gateway");
            status = 1;
            break;
        }
        if (round >= 0) {
            directSamples.append(*a);
            gatewaySamples.append(*b);
        }
    }

    QMetaObject::invokeMethod(
        &gatewayContext, [&] { gateway.reset(); }, Qt::BlockingQueuedConnection);
    gatewayThread.quit();
    gatewayThread.wait();
    if (status != 0)
        return status;
    const QJsonObject directSummary = summary(directSamples);
    const QJsonObject gatewaySummary = summary(gatewaySamples);
    const double ratio = gatewaySummary.value(QStringLiteral("total_median_ms")).toDouble()
                         / directSummary.value(QStringLiteral("total_median_ms")).toDouble();
    const QJsonObject result{{QStringLiteral("direct"), directSummary},
                             {QStringLiteral("gateway"), gatewaySummary},
                             {QStringLiteral("ratio_total_median"), ratio}};
    std::fputs(QJsonDocument(result).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputs("\n", stdout);
    return 0;
}
