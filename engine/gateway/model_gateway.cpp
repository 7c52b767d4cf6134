#include "gateway/model_gateway.h"

#include "gateway/api_error.h"
#include "gateway/exchange_meter.h"
#include "gateway/script_player.h"
#include "gateway/upstream_call.h"

#include <QRandomGenerator>

#include <algorithm>
#include <array>

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

// What the supported agents call (Claude Code, ARCHITECTURE.md 9; pi the
// same Messages API; Codex the Responses API, docs/agents.md), with the one
// method each takes; everything else is refused before it can reach the
// upstream with the real credential.
enum class Endpoint
{
    Probe,
    Messages,
    CountTokens,
    Responses,
    Tools
};

struct Route
{
    QByteArrayView path;
    std::array<QByteArrayView, 2> methods; // none: any (the tool server answers the rest)
    Endpoint endpoint;
};

constexpr Route routes[] = {
    // HEAD from Claude Code; GET from wget in diagnostics and the benchmark.
    {"/api/hello", {"HEAD", "GET"}, Endpoint::Probe},
    {"/v1/messages", {"POST"}, Endpoint::Messages},
    {"/v1/messages/count_tokens", {"POST"}, Endpoint::CountTokens},
    {"/v1/responses", {"POST"}, Endpoint::Responses},
    {"/mcp", {}, Endpoint::Tools},
};

const Route *routeOf(const HttpRequest &request)
{
    for (const Route &route : routes) {
        if (request.path == route.path)
            return &route;
    }
    return nullptr;
}

bool takes(const Route &route, QByteArrayView method)
{
    if (route.methods.front().isEmpty())
        return true;
    return std::find(route.methods.begin(), route.methods.end(), method) != route.methods.end();
}

// Claude Code adds "?beta=true" to its model calls; nothing else is known.
bool isKnownQuery(const HttpRequest &request, Endpoint endpoint)
{
    const bool model = endpoint == Endpoint::Messages || endpoint == Endpoint::CountTokens;
    return request.query.isEmpty() || (model && request.query == "beta=true");
}

std::optional<ModelApi> apiOf(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::Messages:
    case Endpoint::CountTokens:
        return ModelApi::AnthropicMessages;
    case Endpoint::Responses:
        return ModelApi::OpenAIResponses;
    case Endpoint::Probe:
    case Endpoint::Tools:
        break;
    }
    return std::nullopt;
}

QString apiName(ModelApi api)
{
    return api == ModelApi::AnthropicMessages ? QStringLiteral("the Anthropic Messages API")
                                              : QStringLiteral("the OpenAI Responses API");
}

// Each turn's gateway is one server of the engine; these bound them all.
std::shared_ptr<Budget> connectionsInAll()
{
    static const auto budget = std::make_shared<Budget>(gatewayConnectionsInAll);
    return budget;
}

std::shared_ptr<Budget> bodyBytesInAll()
{
    static const auto budget = std::make_shared<Budget>(gatewayBodyBytesInAll);
    return budget;
}

HttpServerOptions
serverOptions(const GatewayOptions &options,
              std::function<std::optional<HttpRefusal>(const HttpRequest &)> admit)
{
    HttpServerOptions server;
    server.admit = std::move(admit);
    server.address = options.listenAddress;
    server.port = options.port;
    server.peer = options.client;
    server.limits = {options.limits.maxHeadBytes, options.limits.maxBodyBytes};
    server.headTimeout = options.limits.headTimeout;
    server.bodyTimeout = options.limits.bodyTimeout;
    server.idleTimeout = options.limits.idleTimeout;
    server.maxConnections = options.limits.connections;
    server.allConnections = connectionsInAll();
    server.maxBodyBytesHeld = options.limits.bodyBytesHeld;
    server.allBodyBytes = bodyBytesInAll();
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
    , m_server(serverOptions(m_options, [this](const HttpRequest &head) { return admit(head); }))
{
    qRegisterMetaType<ModelUsage>();
    qRegisterMetaType<TokenCounts>();
    // The gateway talks to the upstream directly; its own host settings
    // must not route the credential through anything else.
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_network.setAutoDeleteReplies(false);
    connect(&m_server, &HttpServer::requestReceived, this, &ModelGateway::handle);
    connect(&m_server, &HttpServer::peerRefused, this, [this](const QHostAddress &peer) {
        record({{QStringLiteral("reason"), QStringLiteral("peer")},
                {QStringLiteral("peer"), peer.toString()}});
    });
    connect(&m_server, &HttpServer::requestRefused, this, &ModelGateway::record);
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
    return authorization.size() > 7 &&
           authorization.first(7).compare("bearer ", Qt::CaseInsensitive) == 0 &&
           sameToken(QByteArrayView(authorization).sliced(7).trimmed(), m_options.token);
}

HttpRefusal ModelGateway::refuse(const HttpRequest &head, int status, const QString &reason,
                                 const QString &message)
{
    record({{QStringLiteral("reason"), reason},
            {QStringLiteral("status"), status},
            {QStringLiteral("peer"), m_options.client.toString()},
            {QStringLiteral("method"), QString::fromLatin1(head.method.left(32))},
            {QStringLiteral("path"), QString::fromLatin1(head.path.left(200))}});
    return {status, message};
}

void ModelGateway::record(QJsonObject why)
{
    if (m_recordedRefusals > gatewayRecordedRefusals)
        return;
    if (++m_recordedRefusals > gatewayRecordedRefusals)
        why = {{QStringLiteral("reason"), QStringLiteral("unrecorded")},
               {QStringLiteral("detail"),
                QStringLiteral("%1 refusals recorded; later ones of this turn are not")
                    .arg(gatewayRecordedRefusals)}};
    emit refused(why);
}

std::optional<HttpRefusal> ModelGateway::admit(const HttpRequest &head)
{
    if (m_closed)
        return HttpRefusal{503, QStringLiteral("this turn's model gateway is closed")};
    const Route *route = routeOf(head);
    if (!route || (route->endpoint == Endpoint::Tools && !m_options.tools)
        || !isKnownQuery(head, route->endpoint))
        return refuse(head, 404, QStringLiteral("path"),
                      QStringLiteral("the model gateway serves only the model endpoints the agent "
                                     "calls; %1 is not one of them")
                          .arg(QString::fromLatin1(head.target.left(200))));
    // A turn's credential belongs to one API: the other one's path is not
    // there at all, so a guest cannot spend the key on an API it was not
    // given for.
    if (const std::optional<ModelApi> api = apiOf(route->endpoint);
        api && !providerSpeaks(m_options.provider.kind, *api))
        return refuse(head, 404, QStringLiteral("path"),
                      QStringLiteral("this turn's model provider does not speak %1; %2 is not "
                                     "served")
                          .arg(apiName(*api), QString::fromLatin1(head.path.left(200))));
    if (!takes(*route, head.method))
        return refuse(head, 405, QStringLiteral("method"),
                      QStringLiteral("%1 does not take %2")
                          .arg(QString::fromLatin1(route->path.toByteArray()),
                               QString::fromLatin1(head.method.left(32))));
    if (apiOf(route->endpoint) && !m_options.servesModel)
        return refuse(head, 503, QStringLiteral("not-started"),
                      QStringLiteral("no turn has started on this gateway yet; the model is "
                                     "served from the turn's prompt on"));
    // Claude Code's reachability probe carries no key; it is answered here
    // and reaches nothing.
    if (route->endpoint != Endpoint::Probe && !authorized(head))
        return refuse(head, 401, QStringLiteral("token"),
                      route->endpoint == Endpoint::Tools
                          ? QStringLiteral("invalid token for this turn's tool server")
                          : QStringLiteral("invalid token for this turn's model gateway"));
    return std::nullopt;
}

void ModelGateway::serveModel(ProviderSettings provider)
{
    m_options.provider = std::move(provider);
    m_options.servesModel = true;
}

void ModelGateway::handle(HttpExchange *exchange)
{
    if (m_closed) {
        exchange->abortConnection();
        return;
    }
    // admit() let only known routes through, with the token where needed.
    switch (routeOf(exchange->request())->endpoint) {
    case Endpoint::Probe:
        exchange->respond(200, {{"Content-Type", "application/json"}}, "{}");
        return;
    case Endpoint::Tools:
        serveTools(exchange);
        return;
    case Endpoint::Messages:
    case Endpoint::CountTokens:
    case Endpoint::Responses:
        break;
    }
    if (!admitBody(exchange))
        return;
    auto *meter = new ExchangeMeter(exchange);
    connect(meter, &ExchangeMeter::counted, this, &ModelGateway::account);
    connect(meter, &ExchangeMeter::failed, this, &ModelGateway::upstreamFailed);
    connect(meter, &ExchangeMeter::done, this, &ModelGateway::exchanged);
    if (m_options.provider.kind == ProviderKind::Demo)
        answerFromScript(exchange, meter);
    else
        forward(exchange, meter);
}

bool ModelGateway::admitBody(HttpExchange *exchange)
{
    const HttpRequest &request = exchange->request();
    const Endpoint endpoint = routeOf(request)->endpoint;
    const ModelCall call = endpoint == Endpoint::Messages      ? ModelCall::Messages
                           : endpoint == Endpoint::CountTokens ? ModelCall::CountTokens
                                                               : ModelCall::Responses;
    RequestVerdict verdict =
        checkModelRequest(call, request.headers, request.body, m_options.provider.requests);
    if (verdict.allowed()) {
        // What was checked is what goes on: the gateway's own serialization.
        exchange->replaceBody(std::move(verdict.body));
        return true;
    }
    record({{QStringLiteral("reason"), QStringLiteral("body")},
            {QStringLiteral("status"), 400},
            {QStringLiteral("field"), verdict.field.left(300)},
            {QStringLiteral("detail"), verdict.message.left(600)},
            {QStringLiteral("peer"), m_options.client.toString()},
            {QStringLiteral("method"), QString::fromLatin1(request.method)},
            {QStringLiteral("path"), QString::fromLatin1(request.path)}});
    exchange->respond(400, {{"Content-Type", "application/json"}},
                      call == ModelCall::Responses ? openAIErrorBody(400, verdict.message)
                                                   : anthropicErrorBody(400, verdict.message));
    return false;
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
            emit upstreamFailed(
                makeError(QStringLiteral("gateway.upstream-dropped"),
                          QStringLiteral("the connection to %1 dropped mid-response "
                                         "(scripted)")
                              .arg(who)));
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
