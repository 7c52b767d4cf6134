#include "turns/turn_services.h"

#include "tools/mcp_server.h"
#include "tools/topic_messages.h"
#include "tools/turn_tools.h"

namespace arizuko::turns {

TurnServices::TurnServices(TurnEnvironment &environment, TurnServiceBinding binding,
                           QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_binding(std::move(binding))
{}

TurnServices::~TurnServices()
{
    stop();
}

Result<void> TurnServices::start(const libvirt::TurnSubnet &subnet,
                                 const std::optional<gateway::ProviderSettings> &model)
{
    gateway::GatewayOptions options;
    options.listenAddress = QHostAddress(subnet.hostAddress());
    options.port = m_environment.settings.gatewayPort;
    options.client = QHostAddress(subnet.guestAddress());
    options.token = m_token = gateway::newTurnToken();
    options.provider = model.value_or(gateway::ProviderSettings{});
    options.servesModel = model.has_value();
    // Command turns get the tools too: the benchmark and diagnostics call
    // them with wget from the guest's shell.
    startTools();
    // The gateway is closed (stop()) before the server it calls goes.
    options.tools = [this](const QByteArray &body, const gateway::ToolReplyTo &reply) {
        m_mcp->handle(body, reply);
    };
    m_gateway = std::make_unique<gateway::ModelGateway>(options);
    connect(
        m_gateway.get(), &gateway::ModelGateway::exchanged, this,
        [this](const QJsonObject &summary) { emit event(QStringLiteral("model"), summary); },
        Qt::QueuedConnection);
    connect(
        m_gateway.get(), &gateway::ModelGateway::refused, this,
        [this](const QJsonObject &why) { emit event(QStringLiteral("gateway"), why); },
        Qt::QueuedConnection);
    connect(m_gateway.get(), &gateway::ModelGateway::upstreamFailed, this,
            &TurnServices::upstreamFailed, Qt::QueuedConnection);
    return m_gateway->listen();
}

std::optional<gateway::ModelUsage> TurnServices::usage() const
{
    if (!m_gateway)
        return std::nullopt;
    return m_gateway->usage();
}

void TurnServices::bind(TurnServiceBinding binding, const gateway::ProviderSettings &model)
{
    m_binding = std::move(binding);
    startTools();
    if (m_gateway)
        m_gateway->serveModel(model);
}

void TurnServices::startTools()
{
    m_mcp.reset();
    m_tools.reset();
    const RunnerSettings &settings = m_environment.settings;
    tools::TurnBinding binding{m_binding.turnId,
                               m_binding.folder,
                               m_binding.topic,
                               m_binding.depth,
                               settings.maxDelegationDepth,
                               settings.maxTurnsPerTurn,
                               settings.maxTurnsPerFolderHour};
    const tools::QueueTurn queue = [this](const tools::TurnOrder &order) -> Result<QString> {
        TurnRequest request;
        request.folder = order.folder;
        request.topic = order.topic;
        request.prompt = order.prompt;
        request.depth = order.depth;
        request.replyFolder = order.replyFolder;
        request.replyTopic = order.replyTopic;
        return m_environment.submit(request);
    };
    m_tools = std::make_unique<tools::TurnTools>(m_environment.store, binding, queue);
    m_mcp = std::make_unique<tools::McpServer>(*m_tools);
    connect(m_tools.get(), &tools::TurnTools::messagePosted, this,
            [this](const QJsonObject &message) { emit event(QStringLiteral("message"), message); });
    connect(m_tools.get(), &tools::TurnTools::callDecided, this,
            [this](const QJsonObject &decision) { emit event(QStringLiteral("tool"), decision); });
    connect(m_tools.get(), &tools::TurnTools::connectorCalled, this,
            [this](const QJsonObject &call) { emit event(QStringLiteral("connector"), call); });
}

void TurnServices::readShellEnvironment(std::function<void(const QJsonObject &)> read)
{
    if (!m_tools)
        return read({});
    m_tools->readShellEnvironment(std::move(read));
}

bool TurnServices::grantsShellEnvironment()
{
    return m_tools && m_tools->grantsShellEnvironment();
}

void TurnServices::stop()
{
    // The token dies with the listener.
    if (m_gateway) {
        m_gateway->close();
        m_gateway.reset();
    }
    m_mcp.reset();
    m_tools.reset();
}

QJsonObject postTurnReply(store::Store &store, const TurnRequest &request, const QString &turnName,
                          const QString &outcome, const QString &answer)
{
    const QString text = answer.isEmpty()
                             ? QStringLiteral("(the turn %1 in %2 ended %3 without an answer)")
                                   .arg(turnName, request.folder, outcome)
                             : answer;
    const auto posted = tools::postMessage(store, request.replyFolder, request.replyTopic,
                                           QStringLiteral("agent:") + request.folder, text);
    if (!posted)
        return {{QStringLiteral("error"), posted.error().message}};
    return {{QStringLiteral("folder"), request.replyFolder},
            {QStringLiteral("topic"), request.replyTopic},
            {QStringLiteral("message"), posted->id}};
}

} // namespace arizuko::turns
