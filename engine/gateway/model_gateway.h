#pragma once

// A turn's model endpoint: the guest's ANTHROPIC_BASE_URL. It serves only
// the turn's guest address and only the turn's random token, swaps in the
// real credential (which never enters the guest), streams replies back
// unbuffered, and counts tokens and cost. See docs/model-gateway.md.

#include "core/result.h"
#include "gateway/http_server.h"
#include "gateway/model_usage.h"
#include "gateway/provider.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QObject>

#include <chrono>
#include <functional>

namespace arizuko::gateway {

// What the turn's tool server answers to one POST on /mcp: a JSON-RPC
// reply body, or 202 with none for a notification.
struct ToolReply
{
    int status = 202;
    QByteArray body;
};
// Called once per POST, at once or later (a tool working on a worker).
using ToolReplyTo = std::function<void(const ToolReply &reply)>;
using ToolHandler = std::function<void(const QByteArray &body, const ToolReplyTo &reply)>;

// What one turn's gateway lets a guest hold; docs/model-gateway.md says
// why each number. Shared by every gateway in the engine, on top of these:
// gatewayConnectionsInAll and gatewayBodyBytesInAll.
struct GatewayLimits
{
    qsizetype maxHeadBytes = 16 * 1024;
    qsizetype maxBodyBytes = 16 * 1024 * 1024;
    qint64 connections = 32;
    qint64 bodyBytesHeld = 64 * 1024 * 1024;
    std::chrono::milliseconds headTimeout = std::chrono::seconds(10);
    std::chrono::milliseconds bodyTimeout = std::chrono::seconds(60);
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(120);
};
inline constexpr qint64 gatewayConnectionsInAll = 256;
inline constexpr qint64 gatewayBodyBytesInAll = 256 * 1024 * 1024;
inline constexpr int gatewayRecordedRefusals = 100;

struct GatewayOptions
{
    QHostAddress listenAddress;
    quint16 port = 0; // 0 = any (tests); a turn uses its fixed port
    QHostAddress client; // the only peer served
    QByteArray token;    // the turn's token; empty accepts nothing
    ProviderSettings provider;
    // False for a warm-start spare's gateway, made before its turn: the
    // started agent's tool server answers, the model only from
    // serveModel() on (the turn's provider, resolved when it adopts it).
    bool servesModel = true;
    // Serves `/mcp` (behind the same peer and token checks) when set; the
    // gateway knows HTTP only, the JSON-RPC lives in engine/tools.
    ToolHandler tools;
    GatewayLimits limits; // tests shorten the timeouts
};

// 192 bits from the system's random source, as 48 hex digits.
QByteArray newTurnToken();

class ExchangeMeter;

class ModelGateway final : public QObject
{
    Q_OBJECT

public:
    explicit ModelGateway(GatewayOptions options, QObject *parent = nullptr);
    ~ModelGateway() override;

    // The error names address:port and why.
    Result<void> listen();
    // Stops accepting and drops every connection: the token is dead from
    // here on, and listen() will not revive it.
    void close();

    quint16 port() const { return m_server.port(); }
    // From now on the model endpoints are served, by `provider`.
    void serveModel(ProviderSettings provider);
    const ModelUsage &usage() const { return m_usage; }

signals:
    // One per answered request: method, path, status, model, tokens, ms.
    void exchanged(const QJsonObject &summary);
    // A request turned away before it reached anything: {reason (peer,
    // path, method, token, request, busy, connections, not-started, body),
    // field? (body: what the request asked that the gateway does not forward),
    // status?, detail?,
    // peer, method?, path?}. At most gatewayRecordedRefusals per gateway, then
    // one {reason: "unrecorded"}: a guest cannot flood the turn's record.
    void refused(const QJsonObject &why);
    // The model API (or the demo script) failed a request, in a sentence
    // for the transcript.
    void upstreamFailed(const arizuko::Error &error);
    void usageChanged(const arizuko::gateway::ModelUsage &usage);

private:
    friend class ExchangeMeter;
    void handle(HttpExchange *exchange);
    std::optional<HttpRefusal> admit(const HttpRequest &head);
    // The request body is one the supported agents send, within the
    // folder's policy (request_policy.h); else refused with 400 and
    // recorded.
    bool admitBody(HttpExchange *exchange);
    void serveTools(HttpExchange *exchange);
    bool authorized(const HttpRequest &request) const;
    HttpRefusal refuse(const HttpRequest &head, int status, const QString &reason,
                       const QString &message);
    void record(QJsonObject why);
    void answerFromScript(HttpExchange *exchange, ExchangeMeter *meter);
    void forward(HttpExchange *exchange, ExchangeMeter *meter);
    void account(const TokenCounts &delta, bool firstOfResponse, const QString &model);

    GatewayOptions m_options;
    HttpServer m_server;
    QNetworkAccessManager m_network;
    ModelUsage m_usage;
    int m_recordedRefusals = 0;
    bool m_closed = false;
};

} // namespace arizuko::gateway
