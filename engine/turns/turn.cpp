#include "turns/turn.h"

#include "agent/agent_events.h"
#include "folders/topics.h"
#include "gateway/model_gateway.h"
#include "host/guest_image.h"
#include "libvirt/channel_directory.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_tap.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turns/turn_objects.h"
#include "tools/mcp_server.h"
#include "tools/topic_messages.h"
#include "tools/turn_tools.h"
#include "turns/console_tail.h"
#include "turns/egress_proxy.h"
#include "turns/guest_channel.h"
#include "turns/guest_proxy_options.h"
#include "turns/turn_domain_spec.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QThread>
#include <QtConcurrent>
#include <functional>
#include <future>
#include <unistd.h>

namespace arizuko::turns {

// Pretap mode: the VM is created on the engine's tap as soon as the turn is
// prepared, beside the network and the proxy; the filter binding (~1.4 s of
// ebtables/iptables) is made once the tap is on the turn's bridge and the
// proxy's port is known, beside the guest's boot. The turn spec waits for
// the proxy's health and the binding's rules seen in force. Until the spec
// the guest's NIC stays down (the guest configures it from the spec), so
// the guest sends nothing before its filter holds.
struct Turn::FilterBinding
{
    Result<void> result = makeError(QStringLiteral("libvirt.nwfilter"),
                                    QStringLiteral("the filter binding was never made"));
    qint64 ms = 0;

    void run(libvirt::Connection &connection, const std::shared_future<bool> &tapMade,
             const QString &bridge, const libvirt::TurnFilterBindingSpec &binding);
};

struct Turn::DomainCreation
{
    std::optional<Result<std::unique_ptr<libvirt::TurnDomain>>> result;
    QJsonObject timings;
    // Pretap mode: set once the tap was made (or could not be), before the
    // domain's creation; the binding waits for it.
    std::promise<bool> tapPromise;
    std::shared_future<bool> tapMade = tapPromise.get_future().share();

    void run(const std::shared_ptr<libvirt::Connection> &connection,
             const libvirt::TurnDomainSpec &spec);
};

struct Turn::NetworkCreation
{
    std::optional<Result<std::unique_ptr<libvirt::TurnNetwork>>> result;
};

// The libvirt side of a teardown, which blocks for as long as libvirt takes
// (and retries while libvirtd restarts): it owns everything it destroys, so
// it can run on a worker while the turn's thread goes on.
struct Turn::Teardown
{
    QString libvirtUri;
    QString name;
    std::shared_ptr<libvirt::Connection> connection;
    // Pretap mode: the binding and tap the engine made, which go after the VM.
    QString tap;
    QFuture<void> filterFuture;
    QFuture<void> domainFuture;
    std::shared_ptr<DomainCreation> domainCreation;
    QFuture<void> networkFuture;
    std::shared_ptr<NetworkCreation> networkCreation;
    std::unique_ptr<libvirt::TurnDomain> domain;
    std::unique_ptr<libvirt::TurnNetwork> network;
    std::unique_ptr<QTemporaryDir> socketDirectory;
    QElapsedTimer started;
    // What run() found, recorded as events by the turn afterwards.
    QJsonObject timings;
    QStringList errors;

    void run();
};

namespace {

// After the guest reports its exit it syncs and powers off by itself; this
// is how long it gets before the VM is destroyed anyway.
constexpr int exitGraceMs = 3000;

// How much of a console log a boot-limit error quotes.
constexpr int consoleTailLines = 20;

// Claude Code writes one JSON object per line; a line this long is not one
// the transcript keeps whole.
constexpr qsizetype maxAgentLineChars = 16 * 1024 * 1024;

QString turnDirectory(const store::Store &store, const QString &id)
{
    return QDir(store.dataDir()).filePath(QStringLiteral("turns/") + id);
}

} // namespace

void Turn::DomainCreation::run(const std::shared_ptr<libvirt::Connection> &connection,
                               const libvirt::TurnDomainSpec &spec)
{
    QElapsedTimer step;
    if (spec.filterMode == libvirt::FilterMode::Pretap) {
        step.start();
        // On no bridge yet: the binding puts it on the turn's once that exists.
        const Result<void> tap = libvirt::createTurnTap(spec.tapName, QString(), spec.owner);
        tapPromise.set_value(tap.ok());
        if (!tap) {
            result = tap.error();
            return;
        }
        timings.insert(QStringLiteral("tap"), step.elapsed());
    }
    step.start();
    result = libvirt::TurnDomain::create(connection, spec);
    timings.insert(QStringLiteral("domain"), step.elapsed());
}

void Turn::FilterBinding::run(libvirt::Connection &connection,
                              const std::shared_future<bool> &tapMade, const QString &bridge,
                              const libvirt::TurnFilterBindingSpec &binding)
{
    QElapsedTimer step;
    step.start();
    // A binding made before its tap exists has no rules (and gets none).
    if (!tapMade.get()) {
        result = makeError(QStringLiteral("libvirt.tap"),
                           QStringLiteral("no tap %1 to bind the filter to").arg(binding.tap));
        return;
    }
    Result<void> done = libvirt::attachTurnTap(binding.tap, bridge);
    if (done)
        done = libvirt::createTurnFilterBinding(connection, binding);
    if (done)
        done = libvirt::flushTurnConntrack(bridge, binding.filter.guestAddress);
    if (done)
        done = libvirt::verifyTurnFilterRules(binding.tap, binding.filter);
    result = std::move(done);
    ms = step.elapsed();
}

void Turn::Teardown::run()
{
    // Creations still in flight finish first, so nothing they make is left.
    if (domainCreation) {
        domainFuture.waitForFinished();
        if (domainCreation->result && domainCreation->result->ok())
            domain = std::move(domainCreation->result->value());
        else if (domainCreation->result)
            errors << domainCreation->result->error().message;
    }
    if (networkCreation) {
        networkFuture.waitForFinished();
        if (networkCreation->result && networkCreation->result->ok())
            network = std::move(networkCreation->result->value());
    }
    TurnObjects objects{libvirtUri, name, connection, tap, std::move(domain), std::move(network)};
    destroyTurnObjects(
        objects, [this] { filterFuture.waitForFinished(); }, timings, errors);
    socketDirectory.reset();
}

Turn::Turn(TurnEnvironment &environment, TurnRecord record, TurnRequest request, QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_record(std::move(record))
    , m_request(std::move(request))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        finish(TurnState::Failed, makeError(QStringLiteral("turns.deadline"),
                                            QStringLiteral("the turn's deadline of %1 s passed")
                                                .arg(m_deadline.interval() / 1000)));
    });
    connect(&m_creationWatcher, &QFutureWatcher<void>::finished, this, &Turn::onDomainCreated);
    connect(&m_networkWatcher, &QFutureWatcher<void>::finished, this, &Turn::onNetworkCreated);
    connect(&m_teardownWatcher, &QFutureWatcher<void>::finished, this, &Turn::onTornDown);
    connect(&m_filterWatcher, &QFutureWatcher<void>::finished, this, &Turn::onFilterVerified);
    m_bootLimit.setSingleShot(true);
    connect(&m_bootLimit, &QTimer::timeout, this, &Turn::onBootLimit);
    m_exitGrace.setSingleShot(true);
    m_exitGrace.setInterval(exitGraceMs);
    connect(&m_exitGrace, &QTimer::timeout, this, &Turn::onChannelClosed);
}

Turn::~Turn()
{
    if (m_teardown) {
        // Ended, but libvirt is still tearing down: the engine is going
        // away, and the VM must not outlive it.
        m_teardownWatcher.waitForFinished();
        recordTeardown(*std::exchange(m_teardown, nullptr));
    } else if (!m_finished) {
        const std::shared_ptr<Teardown> teardown = stopAndCollect();
        teardown->run();
    }
    flushEvents();
}

std::optional<libvirt::Ipv4Range> Turn::subnet() const
{
    return m_subnet;
}

void Turn::start(const Result<TurnPlan> &plan)
{
    if (!plan) {
        enter(TurnState::Preparing);
        finish(TurnState::Failed, plan.error());
        return;
    }
    m_plan = *plan;
    armDeadline();
    enter(TurnState::Preparing);
    if (const Result<void> prepared = prepare(m_plan); !prepared)
        finish(TurnState::Failed, prepared.error());
}

void Turn::armDeadline()
{
    const auto deadline = m_request.deadline.count() > 0 ? m_request.deadline
                                                         : m_environment.settings.defaultDeadline;
    m_deadlineAt = QDeadlineTimer(std::chrono::duration_cast<std::chrono::milliseconds>(deadline));
    m_deadline.start(std::chrono::duration_cast<std::chrono::milliseconds>(deadline));
}

void Turn::onBootLimit()
{
    const QString log =
        QDir(turnDirectory(m_environment.store, id())).filePath(QStringLiteral("console.log"));
    const QStringList tail = consoleTail(log, consoleTailLines);
    const QString message =
        QStringLiteral("the guest did not report within the boot limit of %1 s (setting %2)")
            .arg(m_bootLimit.intervalAsDuration().count() / 1000)
            .arg(setting::bootLimit);
    finish(TurnState::Failed,
           makeError(QStringLiteral("turns.boot-timeout"),
                     tail.isEmpty()
                         ? message + QStringLiteral("; its console log %1 is empty").arg(log)
                         : message +
                               QStringLiteral("; the last lines of its console (%1):\n").arg(log) +
                               tail.join(QLatin1Char('\n'))));
}

void Turn::cancel(const QString &why)
{
    if (m_finished)
        return;
    recordEvent(QStringLiteral("cancel"), QJsonObject{{QStringLiteral("reason"), why}});
    finish(TurnState::Cancelled);
}

Result<void> Turn::prepare(const TurnPlan &plan)
{
    const host::GuestImageStatus image =
        host::inspectGuestImage(m_environment.settings.guestImageDirectory);
    if (!image.present)
        return makeError(image.missing.isEmpty() ? QStringLiteral("turns.image-mismatch")
                                                 : QStringLiteral("turns.image-missing"),
                         QStringLiteral("the guest image in %1 cannot be used (%2); %3")
                             .arg(image.directory, host::guestImageFault(image),
                                  host::guestImageBuildHint()));
    // Right before the VM is made: the home is still the directory the plan
    // resolved, reached through no link (docs/security-model.md).
    if (const Result<void> home = checkTurnHome(m_environment.store.dataDir(), plan.home); !home)
        return home.error();
    if (!QDir().mkpath(turnDirectory(m_environment.store, id())))
        return makeError(QStringLiteral("turns.files"),
                         QStringLiteral("cannot create the turn directory in %1")
                             .arg(m_environment.store.dataDir()));
    // QEMU's socket paths must fit sun_path (108 bytes), which a deep data
    // directory would not: the sockets live in a short private directory.
    auto sockets = libvirt::makeChannelDirectory(name());
    if (!sockets)
        return sockets.error();
    m_socketDirectory = std::move(sockets.value());
    m_domainSpec = turnDomainSpec(
        m_environment.settings, m_environment.accelerator.accelerator,
        {name(), m_environment.owner, plan.home.path, m_socketDirectory->path(),
         QDir(turnDirectory(m_environment.store, id())).filePath(QStringLiteral("console.log"))});

    createNetwork();
    // Pretap mode: the domain needs neither the network nor the proxy (its
    // tap joins the bridge later, the guest's address comes with the spec),
    // so it is created beside them.
    if (m_domainSpec.filterMode == libvirt::FilterMode::Pretap) {
        m_tap = m_domainSpec.tapName;
        enter(TurnState::Booting);
        createDomain();
    }
    return {};
}

void Turn::createNetwork()
{
    m_networkCreation = std::make_shared<NetworkCreation>();
    m_networkTime.start();
    m_networkWatcher.setFuture(
        QtConcurrent::run(m_environment.workers, [creation = m_networkCreation, connection = m_environment.connection,
                           name = name(), pool = m_environment.pool,
                           taken = m_environment.subnetsInUse(), owner = m_environment.owner] {
            creation->result = libvirt::TurnNetwork::createInPool(
                connection, name, pool, libvirt::routedRanges() + taken, owner);
        }));
}

void Turn::onNetworkCreated()
{
    if (m_finished || !m_networkCreation)
        return;
    const std::shared_ptr<NetworkCreation> creation = std::move(m_networkCreation);
    if (!creation->result->ok()) {
        finish(TurnState::Failed, creation->result->error());
        return;
    }
    m_network = std::move(creation->result->value());
    m_subnet = m_network->subnet().range;
    recordTiming(QStringLiteral("network"), m_networkTime.elapsed());
    (void)m_environment.records.update(id(),
                                       {{QStringLiteral("subnet"), m_network->subnet().range.cidr()},
                                        {QStringLiteral("network_name"), name()}});
    if (const Result<void> started = startProxy(); !started)
        finish(TurnState::Failed, started.error());
}

Result<void> Turn::startProxy()
{
    const TurnPlan &plan = m_plan;
    if (const Result<void> gateway = startGateway(); !gateway)
        return gateway;
    recordPlanNotes();

    m_proxy = std::make_unique<EgressProxy>(
        guestProxyOptions(m_environment, name(), m_network->subnet(), plan.allow, plan.deny,
                          plan.allowAll, plan.allowLoopback));
    connect(m_proxy.get(), &EgressProxy::healthy, this, &Turn::onProxyHealthy,
            Qt::QueuedConnection);
    connectProxy();
    m_proxyStarted.start();
    m_proxy->start();
    (void)m_environment.records.update(id(), {{QStringLiteral("proxy_pid"), m_proxy->pid()}});
    return {};
}

void Turn::recordPlanNotes()
{
    const TurnPlan &plan = m_plan;
    if (!plan.observedContext.isEmpty())
        recordEvent(QStringLiteral("observed"),
                    QJsonObject{{QStringLiteral("context"), plan.observedContext}});
    if (!plan.sessionNote.isEmpty())
        recordEvent(QStringLiteral("session"), QJsonObject{{QStringLiteral("fresh"), true},
                                                           {QStringLiteral("session_id"), plan.sessionId},
                                                           {QStringLiteral("reason"), plan.sessionNote}});
}

void Turn::connectProxy()
{
    connect(
        m_proxy.get(), &EgressProxy::failed, this,
        [this](const Error &error) { finish(TurnState::Failed, error); }, Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::died, this,
        [this](const QString &why) {
            finish(TurnState::Failed,
                   makeError(QStringLiteral("turns.proxy-died"),
                             QStringLiteral("%1 during the turn; nothing leaves the VM without it")
                                 .arg(why)));
        },
        Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::decision, this,
        [this](const QJsonObject &decision) {
            recordEvent(QStringLiteral("network"), decision);
            emit networkDecision(decision);
        },
        Qt::QueuedConnection);
}

Result<void> Turn::startGateway()
{
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    gateway::GatewayOptions options;
    options.listenAddress = QHostAddress(subnet.hostAddress());
    options.port = m_environment.settings.gatewayPort;
    options.client = QHostAddress(subnet.guestAddress());
    options.token = m_gatewayToken = gateway::newTurnToken();
    options.provider = m_plan.model;
    // Command turns get the tools too: the benchmark and diagnostics call
    // them with wget from the guest's shell.
    options.tools = startTools();
    m_gateway = std::make_unique<gateway::ModelGateway>(options);
    connect(
        m_gateway.get(), &gateway::ModelGateway::exchanged, this,
        [this](const QJsonObject &summary) { recordEvent(QStringLiteral("model"), summary); },
        Qt::QueuedConnection);
    connect(
        m_gateway.get(), &gateway::ModelGateway::refused, this,
        [this](const QJsonObject &why) { recordEvent(QStringLiteral("gateway"), why); },
        Qt::QueuedConnection);
    // The agent would retry for minutes against an upstream that refuses
    // it; the turn ends now with the reason instead of at its deadline.
    connect(
        m_gateway.get(), &gateway::ModelGateway::upstreamFailed, this,
        [this](const Error &error) { finish(TurnState::Failed, error); }, Qt::QueuedConnection);
    return m_gateway->listen();
}

gateway::ToolHandler Turn::startTools()
{
    tools::TurnBinding binding{id(),
                               folder(),
                               topic(),
                               m_request.depth,
                               m_environment.settings.maxDelegationDepth,
                               m_environment.settings.maxTurnsPerTurn,
                               m_environment.settings.maxTurnsPerFolderHour};
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
            [this](const QJsonObject &message) { recordEvent(QStringLiteral("message"), message); });
    connect(m_tools.get(), &tools::TurnTools::callDecided, this,
            [this](const QJsonObject &decision) { recordEvent(QStringLiteral("tool"), decision); });
    // The gateway is closed (teardown) before the server it calls goes.
    return [server = m_mcp.get()](const QByteArray &body, const gateway::ToolReplyTo &reply) {
        server->handle(body, reply);
    };
}

void Turn::postReply(TurnState outcome)
{
    if (m_request.replyFolder.isEmpty())
        return;
    const QString answer = m_finalAnswer.isEmpty()
                               ? QStringLiteral("(the turn %1 in %2 ended %3 without an answer)")
                                     .arg(name(), folder(), turnStateName(outcome))
                               : m_finalAnswer;
    const auto posted = tools::postMessage(m_environment.store, m_request.replyFolder,
                                           m_request.replyTopic,
                                           QStringLiteral("agent:") + folder(), answer);
    recordEvent(QStringLiteral("reply"),
                posted ? QJsonObject{{QStringLiteral("folder"), m_request.replyFolder},
                                     {QStringLiteral("topic"), m_request.replyTopic},
                                     {QStringLiteral("message"), posted->id}}
                       : QJsonObject{{QStringLiteral("error"), posted.error().message}});
}

void Turn::onProxyHealthy()
{
    if (m_finished)
        return;
    recordTiming(QStringLiteral("proxy-healthy"), m_proxyStarted.elapsed());
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    (void)m_environment.records.update(
        id(), {{QStringLiteral("proxy_address"),
                QStringLiteral("%1:%2").arg(subnet.hostAddress()).arg(m_proxy->port())}});
    const libvirt::TurnFilterParameters filter{subnet.guestAddress(), subnet.hostAddress(),
                                               m_proxy->port(), m_environment.settings.gatewayPort};
    if (m_domainSpec.filterMode == libvirt::FilterMode::Pretap) {
        m_filter = std::make_shared<FilterBinding>();
        m_filterWatcher.setFuture(QtConcurrent::run(
            m_environment.workers, [filter = m_filter, connection = m_environment.connection,
                                    tapMade = m_tapMade, bridge = m_network->name(),
                                    binding = libvirt::TurnFilterBindingSpec{
                                        m_domainSpec.name, m_domainSpec.uuid, m_domainSpec.tapName,
                                        m_domainSpec.macAddress, filter}] {
                filter->run(*connection, tapMade, bridge, binding);
            }));
        return;
    }
    // Classic mode: libvirt makes the tap on the network and binds the
    // filter while it creates the domain.
    m_domainSpec.networkName = m_network->name();
    m_domainSpec.filter = filter;
    enter(TurnState::Booting);
    createDomain();
}

void Turn::createDomain()
{
    // libvirt may take seconds to start QEMU; the event loop keeps going
    // meanwhile, so a cancel or the deadline is acted on at once.
    m_creation = std::make_shared<DomainCreation>();
    m_tapMade = m_creation->tapMade;
    m_creationTime.start();
    m_creationWatcher.setFuture(QtConcurrent::run(
        m_environment.workers, [creation = m_creation, connection = m_environment.connection,
                                spec = m_domainSpec] { creation->run(connection, spec); }));
}

std::optional<Error> Turn::collectDomain()
{
    if (!m_creation)
        return std::nullopt;
    m_creationWatcher.waitForFinished();
    const std::shared_ptr<DomainCreation> creation = std::move(m_creation);
    if (!creation->timings.isEmpty())
        recordEvent(QStringLiteral("timing"),
                    QJsonObject{{QStringLiteral("step"), QStringLiteral("domain-create-parts")},
                                {QStringLiteral("ms"), creation->timings}});
    if (!creation->result->ok())
        return creation->result->error();
    m_domain = std::move(creation->result->value());
    return std::nullopt;
}

void Turn::onDomainCreated()
{
    if (m_finished || !m_creation)
        return;
    const qint64 createMs = m_creationTime.elapsed();
    if (const std::optional<Error> error = collectDomain()) {
        finish(TurnState::Failed, *error);
        return;
    }
    recordTiming(QStringLiteral("domain-create"), createMs);
    m_channel = std::make_unique<GuestChannel>(m_domainSpec.turnSocketPath);
    connectGuest();
    m_channel->open();
    sendSpecWhenReady();
}

void Turn::connectGuest()
{
    (void)m_environment.records.update(
        id(), {{QStringLiteral("vm_name"), vmName()},
               {QStringLiteral("accelerator"),
                host::acceleratorName(m_environment.accelerator.accelerator)}});
    connect(m_channel.get(), &GuestChannel::message, this, &Turn::onGuestMessage,
            Qt::QueuedConnection);
    connect(m_channel.get(), &GuestChannel::violation, this, &Turn::onGuestViolation,
            Qt::QueuedConnection);
    connect(m_channel.get(), &GuestChannel::closed, this, &Turn::onChannelClosed,
            Qt::QueuedConnection);
    connect(
        m_channel.get(), &GuestChannel::unreachable, this,
        [this](const QString &why) {
            finish(TurnState::Failed, makeError(QStringLiteral("turns.channel"), why));
        },
        Qt::QueuedConnection);
}

void Turn::onFilterVerified()
{
    if (m_finished || !m_filter)
        return;
    recordTiming(QStringLiteral("filter"), m_filter->ms);
    if (!m_filter->result) {
        finish(TurnState::Failed, m_filter->result.error());
        return;
    }
    sendSpecWhenReady();
}

void Turn::sendSpecWhenReady()
{
    // The spec starts the agent: not before the VM is up, the proxy healthy
    // and (pretap mode) the filter's rules seen in force. Classic mode:
    // libvirt bound the filter before QEMU started, after the proxy was healthy.
    const bool filterInForce = m_domainSpec.filterMode == libvirt::FilterMode::Classic ||
                               (m_filter && m_filterWatcher.isFinished() && m_filter->result);
    if (m_specSent || !m_channel || !m_proxy || !m_proxy->isHealthy() || !filterInForce)
        return;
    m_specSent = true;
    recordTiming(QStringLiteral("spec"), m_creationTime.elapsed());
    m_channel->sendTurnSpec(turnSpecLine());
}

void Turn::checkFilterThenSendSpec()
{
    // Classic mode: libvirt bound the filter before QEMU started.
    if (m_domainSpec.filterMode == libvirt::FilterMode::Classic) {
        sendSpecWhenReady();
        return;
    }
    m_filter = std::make_shared<FilterBinding>();
    m_filterWatcher.setFuture(QtConcurrent::run(
        m_environment.workers,
        [filter = m_filter, tap = m_domainSpec.tapName, parameters = m_domainSpec.filter] {
            QElapsedTimer step;
            step.start();
            filter->result = libvirt::verifyTurnFilterRules(tap, parameters);
            filter->ms = step.elapsed();
        }));
}

QByteArray Turn::turnSpecLine() const
{
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    const bool command = m_request.agent == AgentKind::Command;
    const qint64 remainingSeconds = std::max<qint64>(1, m_deadlineAt.remainingTime() / 1000);
    const QString proxyUrl =
        QStringLiteral("http://%1:%2").arg(subnet.hostAddress()).arg(m_proxy->port());
    const QJsonObject spec{
        {QStringLiteral("type"), QStringLiteral("turn")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("turn_id"), id()},
        {QStringLiteral("folder"), folder()},
        {QStringLiteral("topic"), topic()},
        {QStringLiteral("agent"), agentKindName(m_request.agent)},
        {QStringLiteral("prompt"), command ? QString() : m_plan.observedContext + m_request.prompt},
        {QStringLiteral("command"), command ? m_request.prompt : QString()},
        {QStringLiteral("session_id"), m_plan.sessionId},
        {QStringLiteral("session_mode"),
         m_plan.newSession ? QStringLiteral("new") : QStringLiteral("resume")},
        {QStringLiteral("model"), m_request.model.isEmpty() ? m_environment.settings.model
                                                            : m_request.model},
        {QStringLiteral("proxy_url"), proxyUrl},
        {QStringLiteral("gateway_url"), QStringLiteral("http://%1:%2")
                                            .arg(subnet.hostAddress())
                                            .arg(m_environment.settings.gatewayPort)},
        {QStringLiteral("gateway_token"), QString::fromLatin1(m_gatewayToken)},
        {QStringLiteral("skills"), !m_plan.skills.isEmpty()},
        {QStringLiteral("timeout_seconds"), remainingSeconds},
        // The agent runs as the desktop user, so what it writes into the
        // 9p home belongs to that user on the host (root when the engine
        // runs as root: the VM, not the uid, is the confinement).
        {QStringLiteral("uid"), qint64(::getuid())},
        {QStringLiteral("gid"), qint64(::getgid())},
        // Secrets the folder's shell:env:<KEY> grants put into the agent's
        // environment (docs/tools.md); read when the spec goes out.
        {QStringLiteral("env"), m_tools->shellEnvironment()},
        {QStringLiteral("network"),
         QJsonObject{{QStringLiteral("address"), QStringLiteral("%1/%2")
                                                     .arg(subnet.guestAddress())
                                                     .arg(libvirt::TurnSubnet::prefixLength)},
                     {QStringLiteral("gateway"), subnet.hostAddress()}}},
    };
    return QJsonDocument(spec).toJson(QJsonDocument::Compact) + '\n';
}

void Turn::onGuestMessage(const QJsonObject &message)
{
    if (m_finished)
        return;
    if (m_record.state == TurnState::Booting)
        enter(TurnState::Running);
    // The channel let through only the types a guest sends (status, event,
    // log, exit); status and exit come once each, the output is budgeted.
    const QString type = message.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("event") && m_request.agent == AgentKind::Claude) {
        onAgentOutput(message);
        return;
    }
    if (type == QLatin1String("event") || type == QLatin1String("log"))
        recordGuestOutput(type, message, message.value(QStringLiteral("line")).toString().size());
    else
        recordEvent(type, message);
    if (type == QLatin1String("exit")) {
        m_exit = message;
        // The ack tells the guest everything arrived, so it powers off now
        // instead of after its own 3 s wait.
        m_channel->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ack")},
                                    {QStringLiteral("seq"), message.value(QStringLiteral("seq"))}});
        m_exitGrace.start();
    }
}

void Turn::onAgentOutput(const QJsonObject &message)
{
    m_partialLine += message.value(QStringLiteral("line")).toString();
    if (message.value(QStringLiteral("continued")).toBool() &&
        m_partialLine.size() < maxAgentLineChars)
        return;
    const QString line = std::exchange(m_partialLine, QString());
    qsizetype lineChars = line.size(); // counted once, with the line's first event
    for (const agent::AgentEvent &event : agent::agentEventsFromLine(line)) {
        recordGuestOutput(event.kind, event.json, std::exchange(lineChars, 0));
        if (event.kind == QLatin1String("result"))
            m_finalAnswer = event.json.value(QStringLiteral("text")).toString();
        const QString reported = event.json.value(QStringLiteral("session_id")).toString();
        if (event.kind == QLatin1String("init") && !reported.isEmpty() &&
            reported != m_plan.sessionId) {
            // Resume under the id the agent now writes its conversation to.
            m_plan.sessionId = reported;
            (void)folders::Topics(m_environment.store, QStringLiteral("system:turns"))
                .setSessionId(folder(), topic(), reported,
                              QStringLiteral("the agent reported a new session id"));
        }
    }
}

void Turn::recordGuestOutput(const QString &kind, const QJsonObject &json, qsizetype chars)
{
    switch (m_guestOutput.take(chars)) {
    case GuestOutputBudget::Outcome::Store:
        recordEvent(kind, json);
        return;
    case GuestOutputBudget::Outcome::LimitReached:
        recordEvent(QStringLiteral("guest-limit"),
                    QJsonObject{{QStringLiteral("rows"), m_guestOutput.rows()},
                                {QStringLiteral("chars"), m_guestOutput.chars()},
                                {QStringLiteral("message"),
                                 QStringLiteral("the agent's output reached the turn's limit of "
                                                "%1 rows or %2 characters; the rest is not stored")
                                     .arg(maxGuestOutputRows)
                                     .arg(maxGuestOutputChars)}});
        return;
    case GuestOutputBudget::Outcome::Drop:
        return;
    }
}

void Turn::onGuestViolation(const QString &why)
{
    if (m_finished)
        return;
    // Recorded once; the total goes into the turn's last events.
    if (m_guestViolations++ == 0)
        recordEvent(QStringLiteral("guest-protocol"),
                    QJsonObject{{QStringLiteral("violation"), why},
                                {QStringLiteral("message"),
                                 QStringLiteral("the guest sent what its protocol does not allow; "
                                                "it was dropped")}});
}

void Turn::onChannelClosed()
{
    if (m_finished)
        return;
    if (!m_exit) {
        finish(TurnState::Failed,
               makeError(QStringLiteral("turns.guest-stopped"),
                         QStringLiteral("the VM stopped before the guest reported an exit; see %1")
                             .arg(QDir(turnDirectory(m_environment.store, id()))
                                      .filePath(QStringLiteral("console.log")))));
        return;
    }
    const QString reason = m_exit->value(QStringLiteral("reason")).toString();
    const int code = m_exit->value(QStringLiteral("code")).toInt();
    m_record.exitCode = code;
    (void)m_environment.records.update(id(), {{QStringLiteral("exit_code"), code}});
    if (reason == QLatin1String("exited") && code == 0)
        finish(TurnState::Done);
    else if (reason == QLatin1String("cancelled"))
        finish(TurnState::Cancelled);
    else if (reason == QLatin1String("timeout"))
        finish(TurnState::Failed,
               makeError(QStringLiteral("turns.deadline"),
                         QStringLiteral("the guest stopped the agent at the deadline")));
    else
        finish(TurnState::Failed,
               makeError(QStringLiteral("turns.agent-failed"),
                         QStringLiteral("the agent ended with %1 (status %2)%3")
                             .arg(reason)
                             .arg(code)
                             .arg(m_exit->contains(QStringLiteral("message"))
                                      ? QStringLiteral(": ") +
                                            m_exit->value(QStringLiteral("message")).toString()
                                      : QString())));
}

void Turn::finish(TurnState outcome, const std::optional<Error> &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_deadline.stop();
    m_bootLimit.stop();
    m_exitGrace.stop();
    enter(TurnState::Finishing);
    if (error) {
        m_record.errorCode = error->code;
        m_record.error = error->message;
        (void)m_environment.records.update(id(), {{QStringLiteral("error_code"), error->code},
                                                  {QStringLiteral("error"), error->message}});
        recordEvent(QStringLiteral("error"),
                    QJsonObject{{QStringLiteral("code"), error->code},
                                {QStringLiteral("message"), error->message}});
    }
    if (m_guestViolations > 1)
        recordEvent(QStringLiteral("guest-protocol"),
                    QJsonObject{{QStringLiteral("violations"), m_guestViolations},
                                {QStringLiteral("message"),
                                 QStringLiteral("%1 lines of the guest were dropped in all")
                                     .arg(m_guestViolations)}});
    recordModelUsage();
    // The parent's answer to an escalation goes back before the VM does.
    postReply(outcome);
    m_teardown = stopAndCollect();
    // The turn is over for the user now: its last event is stored, and
    // destroying the VM, filter, tap and network follows on a worker. The
    // runner keeps the turn's slot until released().
    enter(outcome);
    flushEvents();
    emit finished(outcome);
    m_teardownWatcher.setFuture(QtConcurrent::run(m_environment.workers, [teardown = m_teardown] { teardown->run(); }));
}

void Turn::onTornDown()
{
    const std::shared_ptr<Teardown> teardown = std::move(m_teardown);
    if (!teardown)
        return;
    recordTeardown(*teardown);
    flushEvents();
    emit released();
}

void Turn::recordTeardown(const Teardown &teardown)
{
    for (const QString &error : teardown.errors)
        recordEvent(QStringLiteral("teardown"), QJsonObject{{QStringLiteral("error"), error}});
    if (!teardown.timings.isEmpty())
        recordEvent(QStringLiteral("timing"),
                    QJsonObject{{QStringLiteral("step"), QStringLiteral("teardown-parts")},
                                {QStringLiteral("ms"), teardown.timings}});
    recordTiming(QStringLiteral("teardown"), teardown.started.elapsed());
}

void Turn::recordModelUsage()
{
    if (!m_gateway)
        return;
    const gateway::ModelUsage &usage = m_gateway->usage();
    m_record.usage = usage.toJson();
    m_record.costUsd = usage.costUsd;
    (void)m_environment.records.update(
        id(), {{QStringLiteral("usage"),
                QString::fromUtf8(QJsonDocument(m_record.usage).toJson(QJsonDocument::Compact))},
               {QStringLiteral("cost_usd"), usage.costUsd ? QVariant(*usage.costUsd) : QVariant()}});
    recordEvent(QStringLiteral("usage"), m_record.usage);
}

std::shared_ptr<Turn::Teardown> Turn::stopAndCollect()
{
    // Every resource goes, whatever ended the turn, in the order that cuts
    // the guest off first: its way out (the proxy), then the VM, then its
    // network. A failure to destroy one does not keep the others.
    auto teardown = std::make_shared<Teardown>();
    teardown->started.start();
    if (m_proxy) {
        QElapsedTimer step;
        step.start();
        m_proxy->stop();
        m_proxy.reset();
        teardown->timings.insert(QStringLiteral("proxy"), step.elapsed());
    }
    // The token dies with the listener.
    if (m_gateway) {
        m_gateway->close();
        m_gateway.reset();
    }
    m_mcp.reset();
    m_tools.reset();
    if (m_channel) {
        m_channel->close();
        m_channel.reset();
    }
    teardown->libvirtUri = m_environment.settings.libvirtUri;
    teardown->name = vmName();
    teardown->connection = m_environment.connection;
    teardown->tap = m_tap;
    teardown->filterFuture = m_filterWatcher.future();
    teardown->domainFuture = m_creationWatcher.future();
    teardown->domainCreation = std::move(m_creation);
    teardown->networkFuture = m_networkWatcher.future();
    teardown->networkCreation = std::move(m_networkCreation);
    teardown->domain = std::move(m_domain);
    teardown->network = std::move(m_network);
    teardown->socketDirectory = std::move(m_socketDirectory);
    return teardown;
}

void Turn::enter(TurnState state)
{
    const QString at = store::nowTimestamp();
    m_record.state = state;
    switch (state) {
    case TurnState::Queued:
        m_record.queuedAt = at;
        break;
    case TurnState::Preparing:
        m_record.preparingAt = at;
        break;
    case TurnState::Booting:
        m_record.bootingAt = at;
        m_bootLimit.start(m_environment.settings.bootLimit);
        break;
    case TurnState::Running:
        m_record.runningAt = at;
        m_bootLimit.stop();
        break;
    case TurnState::Finishing:
        m_record.finishingAt = at;
        break;
    default:
        m_record.endedAt = at;
        break;
    }
    (void)m_environment.records.setState(id(), state, at);
    recordEvent(QStringLiteral("phase"),
                QJsonObject{{QStringLiteral("state"), turnStateName(state)}});
    emit phaseChanged(state);
}

void Turn::recordTiming(const QString &step, qint64 milliseconds)
{
    recordEvent(QStringLiteral("timing"),
                QJsonObject{{QStringLiteral("step"), step}, {QStringLiteral("ms"), milliseconds}});
}

void Turn::recordEvent(const QString &kind, const QJsonObject &json)
{
    m_pendingEvents.append({id(), m_nextSeq++, kind, json, store::nowTimestamp()});
    if (m_pendingEvents.size() == 1)
        QMetaObject::invokeMethod(this, &Turn::flushEvents, Qt::QueuedConnection);
}

void Turn::flushEvents()
{
    if (m_pendingEvents.isEmpty())
        return;
    const QList<TurnEventRecord> batch = std::exchange(m_pendingEvents, {});
    (void)m_environment.records.appendEvents(batch);
    emit eventsReceived(batch);
    for (const TurnEventRecord &event : batch)
        emit eventReceived(event);
}

} // namespace arizuko::turns
