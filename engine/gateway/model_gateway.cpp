#include "gateway/model_gateway.h"

#include "gateway/api_error.h"
#include "gateway/exchange_meter.h"
#include "gateway/script_player.h"
#include "gateway/upstream_call.h"

#include <QRandomGenerator>

namespace arizuko::gateway {

namespace {

// Equal-length tokens are compared in constant time, so the time a refusal
// takes says nothing about how much of a guess was right.
bool sameToken(QByteArrayView given, QByteArrayView expected)
{
    if (expected.isEmpty() || given.size() != expected.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype index = 0; index < given.size(); ++index)
        difference |= static_cast<unsigned char>(given[index] ^ expected[index]);
    return difference == 0;
}

bool isServedPath(const HttpRequest &request)
{
    const QByteArray &path = request.path;
    if (path.contains("/..") || path.contains("//") || path.contains('%'))
        return false;
    return path.startsWith("/v1/");
}

bool isProbe(const HttpRequest &request)
{
    return (request.method == "HEAD" || request.method == "GET") && request.path == "/api/hello";
}

HttpServerOptions serverOptions(const GatewayOptions &options)
{
    HttpServerOptions server;
    server.address = options.listenAddress;
    server.port = options.port;
    server.peer = options.client;
    return server;
}

} // namespace

QByteArray newTurnToken()
{
    quint32 words[6];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex();
}

ModelGateway::ModelGateway(GatewayOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_server(serverOptions(m_options))
{
    qRegisterMetaType<ModelUsage>();
    qRegisterMetaType<TokenCounts>();
    // The gateway talks to the upstream directly; its own host settings
    // must not route the credential through anything else.
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_network.setAutoDeleteReplies(false);
    connect(&m_server, &HttpServer::requestReceived, this, &ModelGateway::handle);
    connect(&m_server, &HttpServer::peerRefused, this, [this](const QHostAddress &peer) {
        emit refused({{QStringLiteral("reason"), QStringLiteral("peer")},
                      {QStringLiteral("peer"), peer.toString()}});
    });
}

ModelGateway::~ModelGateway()
{
    close();
}

Result<void> ModelGateway::listen()
{
    if (m_closed)
        return makeError(QStringLiteral("gateway.closed"),
                         QStringLiteral("the model gateway of this turn was closed"));
    return m_server.listen();
}

void ModelGateway::close()
{
    m_closed = true;
    m_server.close();
}

bool ModelGateway::authorized(const HttpRequest &request) const
{
    if (const auto key = request.header("x-api-key"); key && sameToken(*key, m_options.token))
        return true;
    const QByteArray authorization = request.header("authorization").value_or(QByteArray());
    return authorization.size() > 7 && authorization.first(7).compare("bearer ", Qt::CaseInsensitive) == 0
           && sameToken(QByteArrayView(authorization).sliced(7).trimmed(), m_options.token);
}

void ModelGateway::refuse(HttpExchange *exchange, int status, const QString &reason,
                          const QString &message)
{
    const HttpRequest &request = exchange->request();
    emit refused({{QStringLiteral("reason"), reason},
                  {QStringLiteral("peer"), exchange->peer().toString()},
                  {QStringLiteral("method"), QString::fromLatin1(request.method)},
                  {QStringLiteral("path"), QString::fromLatin1(request.path.left(200))}});
    exchange->respond(status, {{"Content-Type", "application/json"}}, anthropicErrorBody(status, message));
}

void ModelGateway::handle(HttpExchange *exchange)
{
    if (m_closed) {
        exchange->abortConnection();
        return;
    }
    const HttpRequest &request = exchange->request();
    // Claude Code's reachability probe carries no key; it is answered here
    // and reaches nothing.
    if (isProbe(request)) {
        exchange->respond(200, {{"Content-Type", "application/json"}}, "{}");
        return;
    }
    if (request.path == "/mcp" && m_options.tools) {
        if (!authorized(request))
            return refuse(exchange, 401, QStringLiteral("token"),
                          QStringLiteral("invalid token for this turn's tool server"));
        return serveTools(exchange);
    }
    if (!isServedPath(request))
        return refuse(exchange, 404, QStringLiteral("path"), QStringLiteral("not found"));
    if (!authorized(request))
        return refuse(exchange, 401, QStringLiteral("token"),
                      QStringLiteral("invalid token for this turn's model gateway"));

    auto *meter = new ExchangeMeter(exchange);
    connect(meter, &ExchangeMeter::counted, this, &ModelGateway::account);
    connect(meter, &ExchangeMeter::failed, this, &ModelGateway::upstreamFailed);
    connect(meter, &ExchangeMeter::done, this, &ModelGateway::exchanged);
    if (m_options.provider.kind == ProviderKind::Demo)
        answerFromScript(exchange, meter);
    else
        forward(exchange, meter);
}

void ModelGateway::serveTools(HttpExchange *exchange)
{
    // Streamable HTTP without a server-to-client stream: Claude Code's GET
    // for one is told there is none, and a session needs no DELETE.
    if (exchange->request().method != "POST") {
        exchange->respond(405, {{"Allow", "POST"}, {"Content-Type", "application/json"}}, "{}");
        return;
    }
    // The reply may come later; by then the guest may have gone.
    m_options.tools(exchange->request().body, [exchange = QPointer<HttpExchange>(exchange)](
                                                  const ToolReply &reply) {
        if (!exchange)
            return;
        exchange->respond(reply.status,
                          reply.body.isEmpty() ? HttpHeaders{}
                                               : HttpHeaders{{"Content-Type", "application/json"}},
                          reply.body);
    });
}

void ModelGateway::answerFromScript(HttpExchange *exchange, ExchangeMeter *meter)
{
    const std::shared_ptr<const ScriptedModel> &script = m_options.provider.script;
    const HttpRequest &request = exchange->request();
    if (!script) {
        exchange->respond(500, {{"Content-Type", "application/json"}},
                          anthropicErrorBody(500, QStringLiteral("the demo model has no script")));
        emit upstreamFailed(makeError(QStringLiteral("gateway.no-script"),
                                      QStringLiteral("the demo model has no script")));
        meter->finish(true);
        return;
    }
    const ScriptedReply reply = script->reply(request.method, request.path, request.body);
    auto *player = new ScriptPlayer(reply, exchange);
    connect(player, &ScriptPlayer::sent, meter, &ExchangeMeter::read);
    connect(player, &ScriptPlayer::finished, this, [this, meter, reply](bool dropped) {
        // A scripted failure reads in the transcript like a real one, so
        // tests can drive a turn's error handling with the demo provider.
        const QString who = QStringLiteral("the demo model");
        if (dropped)
            emit upstreamFailed(makeError(QStringLiteral("gateway.upstream-dropped"),
                                          QStringLiteral("the connection to %1 dropped mid-response "
                                                         "(scripted)").arg(who)));
        else if (reply.status >= 400)
            emit upstreamFailed(upstreamStatusError(reply.status, reply.body, who));
        meter->finish(dropped || reply.status >= 400);
    });
    player->start();
}

void ModelGateway::forward(HttpExchange *exchange, ExchangeMeter *meter)
{
    auto *call = new UpstreamCall(m_network, m_options.provider, exchange);
    connect(call, &UpstreamCall::sent, meter, &ExchangeMeter::read);
    connect(call, &UpstreamCall::failed, this, &ModelGateway::upstreamFailed);
    connect(call, &UpstreamCall::finished, meter, [meter, call] {
        // A reply the guest walked away from is not the upstream's failure.
        meter->finish(call->hasFailed() || call->wasCancelled());
    });
    call->start();
}

void ModelGateway::account(const TokenCounts &delta, bool firstOfResponse, const QString &model)
{
    if (firstOfResponse)
        ++m_usage.responses;
    // The demo costs nothing; a model missing from the table has no known cost.
    const std::optional<ModelPrice> price = m_options.provider.kind == ProviderKind::Demo
                                                ? std::optional<ModelPrice>(ModelPrice{})
                                                : publishedPrice(model);
    m_usage.add(delta, price);
    emit usageChanged(m_usage);
}

} // namespace arizuko::gateway
