#include "turns/libvirt_guest_machine.h"

#include "core/run_on_worker.h"
#include "host/guest_image.h"
#include "https/turn_authority.h"
#include "libvirt/channel_directory.h"
#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_tap.h"
#include "posix/filled_pipe.h"
#include "store/store.h"
#include "turns/egress_proxy.h"
#include "turns/guest_channel.h"
#include "turns/guest_proxy_options.h"
#include "turns/turn_domain_spec.h"
#include "turns/turn_objects.h"

#include <QDir>
#include <future>

namespace arizuko::turns {

// What the workers make, kept until the machine takes it or its teardown
// does, so a teardown can wait for a creation still in flight and destroy
// what it made.
struct LibvirtGuestMachine::Made
{
    std::optional<Result<std::unique_ptr<libvirt::TurnNetwork>>> network;
    std::optional<Result<std::unique_ptr<libvirt::TurnDomain>>> domain;
    QJsonObject domainParts;
    // Pretap mode: set once the tap was made (or could not be), before the
    // domain's creation; the binding waits for it, since a binding made
    // before its tap exists has no rules (and gets none).
    std::promise<bool> tapPromise;
    std::shared_future<bool> tapMade = tapPromise.get_future().share();
    Result<void> filter = makeError(QStringLiteral("libvirt.nwfilter"),
                                    QStringLiteral("the filter binding was never made"));
    qint64 filterMs = 0;
};

// The libvirt side of a teardown, which blocks for as long as libvirt takes
// (and retries while libvirtd restarts): it owns everything it destroys, so
// it runs on a worker while the machine's thread goes on.
struct LibvirtGuestMachine::Teardown
{
    TurnObjects objects;
    std::shared_ptr<Made> made;
    QFuture<void> networkFuture;
    QFuture<void> domainFuture;
    QFuture<void> filterFuture;
    std::unique_ptr<QTemporaryDir> socketDirectory;
    QElapsedTimer started;
    GuestTeardown report;

    void run()
    {
        // Creations still in flight finish first, so nothing they make is left.
        networkFuture.waitForFinished();
        domainFuture.waitForFinished();
        if (made->network && made->network->ok())
            objects.network = std::move(made->network->value());
        if (made->domain && made->domain->ok())
            objects.domain = std::move(made->domain->value());
        else if (made->domain)
            report.errors << made->domain->error().message;
        destroyTurnObjects(
            objects, [this] { filterFuture.waitForFinished(); }, report.parts, report.errors);
        socketDirectory.reset();
        report.ms = started.elapsed();
    }
};

LibvirtGuestMachine::LibvirtGuestMachine(TurnEnvironment &environment, GuestMachineSpec spec,
                                         QObject *parent)
    : GuestMachine(parent)
    , m_environment(environment)
    , m_spec(std::move(spec))
    , m_made(std::make_shared<Made>())
{}

LibvirtGuestMachine::~LibvirtGuestMachine()
{
    // The engine is going away: the VM must not outlive it.
    if (state() != State::Stopped)
        stopAndWait();
}

std::optional<libvirt::TurnSubnet> LibvirtGuestMachine::subnet() const
{
    // Kept through the teardown: the /30 is not free before the network is gone.
    if (state() == State::Stopped)
        return std::nullopt;
    return m_subnet;
}

qint64 LibvirtGuestMachine::proxyPid() const
{
    return m_proxy ? m_proxy->pid() : 0;
}

quint16 LibvirtGuestMachine::proxyPort() const
{
    return m_proxy ? m_proxy->port() : 0;
}

bool LibvirtGuestMachine::proxyRunning() const
{
    return m_proxy && m_proxy->isRunning();
}

QString LibvirtGuestMachine::consoleLogPath() const
{
    return QDir(m_spec.directory).filePath(QStringLiteral("console.log"));
}

bool LibvirtGuestMachine::isEnding() const
{
    return state() == State::Failed || state() == State::Stopping || state() == State::Stopped;
}

void LibvirtGuestMachine::start()
{
    if (state() != State::Idle)
        return;
    setState(State::Preparing);
    m_connection = m_environment.connection;
    if (const Result<void> prepared = prepare(); !prepared) {
        fail(prepared.error());
        return;
    }
    createNetwork();
    // Pretap mode: the domain needs neither the network nor the proxy (its
    // tap joins the bridge later, the guest's address comes with the spec),
    // so it is created beside them. Until the spec the guest's NIC stays
    // down, so the guest sends nothing before its filter holds.
    if (m_domainSpec.filterMode == libvirt::FilterMode::Pretap)
        createDomain();
}

Result<void> LibvirtGuestMachine::prepare()
{
    const host::GuestImageStatus image =
        host::inspectGuestImage(m_environment.settings.guestImageDirectory);
    if (!image.present)
        return makeError(image.missing.isEmpty() ? QStringLiteral("turns.image-mismatch")
                                                 : QStringLiteral("turns.image-missing"),
                         host::guestImageUnusable(image));
    if (!QDir().mkpath(m_spec.directory))
        return makeError(QStringLiteral("turns.files"),
                         QStringLiteral("cannot create the directory %1").arg(m_spec.directory));
    // QEMU's socket paths must fit sun_path (108 bytes), which a deep data
    // directory would not: the sockets live in a short private directory.
    auto sockets = libvirt::makeChannelDirectory(m_spec.name);
    if (!sockets)
        return sockets.error();
    m_socketDirectory = std::move(sockets.value());
    m_domainSpec =
        turnDomainSpec(m_environment.settings, m_environment.accelerator.accelerator,
                       {m_spec.name, m_environment.owner, m_spec.home.path,
                        m_socketDirectory->path(), consoleLogPath(), m_spec.specTimeoutSeconds});
    return {};
}

void LibvirtGuestMachine::createNetwork()
{
    m_networkTime.start();
    m_networkFuture = runOnWorker(
        m_environment.workers, this,
        [made = m_made, connection = m_connection, name = m_spec.name, pool = m_environment.pool,
         taken = m_environment.subnetsInUse(), owner = m_environment.owner] {
            made->network = libvirt::TurnNetwork::createInPool(
                connection, name, pool, libvirt::routedRanges() + taken, owner);
        },
        [this] { onNetworkCreated(); });
}

void LibvirtGuestMachine::onNetworkCreated()
{
    if (isEnding())
        return;
    auto created = std::move(*m_made->network);
    m_made->network.reset();
    if (!created) {
        fail(created.error());
        return;
    }
    m_network = std::move(created.value());
    m_subnet = m_network->subnet();
    record(QStringLiteral("network"), m_networkTime.elapsed());
    emit networkReady();
    if (!isEnding())
        startProxy();
}

void LibvirtGuestMachine::startProxy()
{
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    EgressOptions options =
        guestProxyOptions(m_environment, m_spec.name, subnet, m_spec.allow, m_spec.deny,
                          m_spec.allowAll, m_spec.allowLoopback, m_spec.unlisted, m_spec.folder);
    if (!m_spec.inspectedHosts.isEmpty()) {
        // Fail closed: a turn whose rules or bound secrets need inspection
        // has no proxy, so no turn, without its own CA.
        auto inspectCa = inspectionAuthority();
        if (!inspectCa) {
            fail(inspectCa.error());
            return;
        }
        options.rules = m_spec.rules;
        options.inspectCa = std::make_shared<posix::UniqueFd>(std::move(*inspectCa));
    }
    if (!m_spec.boundSecrets.isEmpty()) {
        // Likewise: the values reach the proxy on a pipe, or there is no turn.
        QByteArray lines = egressSecretLines(m_spec.boundSecrets);
        std::string error;
        posix::UniqueFd secrets =
            posix::filledPipe(std::string_view(lines.constData(), size_t(lines.size())), error);
        lines.fill('\0');
        if (!secrets) {
            fail(makeError(QStringLiteral("turns.bound-secrets"),
                           QStringLiteral("no turn: its bound secrets could not be handed to "
                                          "its proxy: %1")
                               .arg(QString::fromStdString(error))));
            return;
        }
        options.boundSecrets = true;
        options.secrets = std::make_shared<posix::UniqueFd>(std::move(secrets));
    }
    m_proxy = std::make_unique<EgressProxy>(std::move(options));
    // Queued: a resource is never destroyed from inside one of its own signals.
    connect(m_proxy.get(), &EgressProxy::healthy, this, &LibvirtGuestMachine::onProxyHealthy,
            Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::failed, this, [this](const Error &error) { fail(error); },
        Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::died, this,
        [this](const QString &why) {
            fail(makeError(QStringLiteral("turns.proxy-died"),
                           QStringLiteral("%1; nothing leaves the VM without it").arg(why)));
        },
        Qt::QueuedConnection);
    connect(m_proxy.get(), &EgressProxy::decision, this, &GuestMachine::networkDecision,
            Qt::QueuedConnection);
    connect(m_proxy.get(), &EgressProxy::question, this, &GuestMachine::networkQuestion,
            Qt::QueuedConnection);
    m_proxyPart = Part::Making;
    m_proxyTime.start();
    m_proxy->start();
    emit proxyStarted();
}

Result<posix::UniqueFd> LibvirtGuestMachine::inspectionAuthority()
{
    auto authority =
        https::makeTurnAuthority({m_spec.name, m_spec.inspectedHosts, m_spec.inspectUntil});
    if (!authority)
        return makeError(QStringLiteral("turns.inspection-ca"),
                         QStringLiteral("no turn: its inspected hosts (rules by method and "
                                        "path, bound secrets) need the turn's own certificate "
                                        "authority, which could not be made: %1")
                             .arg(authority.error().message));
    auto pipe = authority->proxyBundlePipe();
    if (!pipe)
        return makeError(QStringLiteral("turns.inspection-ca"),
                         QStringLiteral("no turn: the turn's certificate authority could not be "
                                        "handed to its proxy: %1")
                             .arg(pipe.error().message));
    // The key goes with `authority`; the certificate is what the guest trusts.
    m_inspectionCertificate = authority->certificatePem();
    return pipe;
}

void LibvirtGuestMachine::onProxyHealthy()
{
    if (isEnding())
        return;
    m_proxyPart = Part::Made;
    record(QStringLiteral("proxy-healthy"), m_proxyTime.elapsed());
    emit proxyHealthy();
    if (isEnding())
        return;
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    m_domainSpec.filter = {subnet.guestAddress(), subnet.hostAddress(), m_proxy->port(),
                           m_environment.settings.gatewayPort};
    if (m_domainSpec.filterMode == libvirt::FilterMode::Pretap) {
        bindFilter(false);
        return;
    }
    // Classic mode: libvirt makes the tap on the network and binds the
    // filter while it creates the domain, before QEMU runs.
    m_domainSpec.networkName = m_network->name();
    createDomain();
}

void LibvirtGuestMachine::createDomain()
{
    // Right before the domain is made (libvirt and QEMU open the share by
    // its path; in classic mode the network and the proxy took seconds
    // since prepare()): the home is still the directory the plan resolved,
    // reached through no link (docs/security-model.md).
    if (const Result<void> home = checkTurnHome(m_environment.store.dataDir(), m_spec.home);
        !home) {
        fail(home.error());
        return;
    }
    setState(State::Booting);
    emit booting();
    if (m_domainSpec.filterMode == libvirt::FilterMode::Pretap)
        m_tap = m_domainSpec.tapName;
    m_domainPart = Part::Making;
    m_domainTime.start();
    // libvirt may take seconds to start QEMU; the event loop keeps going
    // meanwhile, so a cancel or a deadline is acted on at once.
    m_domainFuture = runOnWorker(
        m_environment.workers, this,
        [made = m_made, connection = m_connection, spec = m_domainSpec] {
            QElapsedTimer step;
            if (spec.filterMode == libvirt::FilterMode::Pretap) {
                step.start();
                // On no bridge yet: the binding puts it on the machine's.
                const Result<void> tap =
                    libvirt::createTurnTap(spec.tapName, QString(), spec.owner);
                made->tapPromise.set_value(tap.ok());
                if (!tap) {
                    made->domain = tap.error();
                    return;
                }
                made->domainParts.insert(QStringLiteral("tap"), step.elapsed());
            }
            step.start();
            made->domain = libvirt::TurnDomain::create(connection, spec);
            made->domainParts.insert(QStringLiteral("domain"), step.elapsed());
        },
        [this] { onDomainCreated(); });
}

void LibvirtGuestMachine::onDomainCreated()
{
    if (isEnding())
        return;
    const qint64 createMs = m_domainTime.elapsed();
    if (!m_made->domainParts.isEmpty())
        record(QStringLiteral("domain-create-parts"), m_made->domainParts);
    auto created = std::move(*m_made->domain);
    m_made->domain.reset();
    if (!created) {
        fail(created.error());
        return;
    }
    m_domain = std::move(created.value());
    record(QStringLiteral("domain-create"), createMs);
    m_domainPart = Part::Made;
    // Classic mode: libvirt bound the filter before QEMU started, after the
    // proxy was healthy.
    if (m_domainSpec.filterMode == libvirt::FilterMode::Classic)
        m_filterPart = Part::Made;
    emit domainCreated();
    if (isEnding())
        return;
    openChannel();
    becomeReadyWhenAllMade();
}

void LibvirtGuestMachine::openChannel()
{
    m_channel = std::make_unique<GuestChannel>(m_domainSpec.turnSocketPath);
    connect(m_channel.get(), &GuestChannel::message, this, &GuestMachine::guestMessage,
            Qt::QueuedConnection);
    connect(m_channel.get(), &GuestChannel::violation, this, &GuestMachine::guestViolation,
            Qt::QueuedConnection);
    connect(m_channel.get(), &GuestChannel::closed, this, &GuestMachine::guestClosed,
            Qt::QueuedConnection);
    connect(
        m_channel.get(), &GuestChannel::unreachable, this,
        [this](const QString &why) { fail(makeError(QStringLiteral("turns.channel"), why)); },
        Qt::QueuedConnection);
    m_channel->open();
}

void LibvirtGuestMachine::bindFilter(bool again)
{
    m_filterPart = Part::Making;
    const libvirt::TurnFilterBindingSpec binding{m_domainSpec.name, m_domainSpec.uuid,
                                                 m_domainSpec.tapName, m_domainSpec.macAddress,
                                                 m_domainSpec.filter};
    m_filterFuture = runOnWorker(
        m_environment.workers, this,
        [made = m_made, connection = m_connection, bridge = m_network->name(), binding, again] {
            QElapsedTimer step;
            step.start();
            Result<void> done;
            if (!again) {
                if (!made->tapMade.get()) {
                    made->filter = makeError(
                        QStringLiteral("libvirt.tap"),
                        QStringLiteral("no tap %1 to bind the filter to").arg(binding.tap));
                    return;
                }
                done = libvirt::attachTurnTap(binding.tap, bridge);
                if (done)
                    done = libvirt::createTurnFilterBinding(*connection, binding);
                if (done)
                    done = libvirt::flushTurnConntrack(bridge, binding.filter.guestAddress);
            }
            if (done)
                done = libvirt::verifyTurnFilterRules(binding.tap, binding.filter);
            made->filter = std::move(done);
            made->filterMs = step.elapsed();
        },
        [this] { onFilterBound(); });
}

void LibvirtGuestMachine::onFilterBound()
{
    if (isEnding())
        return;
    record(QStringLiteral("filter"), m_made->filterMs);
    if (!m_made->filter) {
        fail(m_made->filter.error());
        return;
    }
    m_filterPart = Part::Made;
    becomeReadyWhenAllMade();
}

void LibvirtGuestMachine::becomeReadyWhenAllMade()
{
    // The spec starts the agent: not before the VM is up, the proxy healthy
    // and the filter's rules in force.
    if (state() != State::Booting || m_proxyPart != Part::Made || m_domainPart != Part::Made ||
        m_filterPart != Part::Made || !m_proxy->isHealthy())
        return;
    setState(State::Ready);
    emit ready();
}

void LibvirtGuestMachine::sendSpec(const QByteArray &line)
{
    if (state() != State::Ready)
        return;
    setState(State::Running);
    m_channel->sendTurnSpec(line);
}

void LibvirtGuestMachine::send(const QJsonObject &message)
{
    if (m_channel)
        m_channel->send(message);
}

void LibvirtGuestMachine::answerQuestion(quint64 id, const QString &answer, const QString &reason)
{
    if (m_proxy)
        m_proxy->answer(id, answer, reason);
}

void LibvirtGuestMachine::recheck()
{
    if (state() != State::Ready)
        return;
    setState(State::Booting);
    // Classic mode: libvirt bound the filter before QEMU started, for good.
    if (m_domainSpec.filterMode == libvirt::FilterMode::Classic) {
        QMetaObject::invokeMethod(this, &LibvirtGuestMachine::becomeReadyWhenAllMade,
                                  Qt::QueuedConnection);
        return;
    }
    // Pretap mode: the rules were seen in force when the machine was made,
    // maybe minutes ago; they are read back again.
    bindFilter(true);
}

void LibvirtGuestMachine::fail(const Error &error)
{
    if (isEnding())
        return;
    setState(State::Failed);
    emit failed(error);
}

void LibvirtGuestMachine::record(const QString &step, const QJsonValue &ms)
{
    if (ms.isObject()) {
        const QJsonObject parts = ms.toObject();
        for (auto part = parts.begin(); part != parts.end(); ++part)
            m_timings.insert(part.key(), part.value());
    } else if (step != QLatin1String("domain-create")) {
        m_timings.insert(step, ms);
    }
    emit timing(step, ms);
}

std::shared_ptr<LibvirtGuestMachine::Teardown> LibvirtGuestMachine::beginTeardown()
{
    // Every part goes, however the machine ends, in the order that cuts the
    // guest off first: its way out (the proxy), then the VM, then its
    // network. A failure to destroy one does not keep the others.
    setState(State::Stopping);
    auto teardown = std::make_shared<Teardown>();
    teardown->started.start();
    if (m_proxy) {
        QElapsedTimer step;
        step.start();
        m_proxy->stop();
        m_proxy.reset();
        teardown->report.parts.insert(QStringLiteral("proxy"), step.elapsed());
    }
    if (m_channel) {
        m_channel->close();
        m_channel.reset();
    }
    teardown->objects = {m_environment.settings.libvirtUri,
                         m_spec.name,
                         m_connection,
                         m_tap,
                         std::move(m_domain),
                         std::move(m_network)};
    teardown->made = m_made;
    teardown->networkFuture = m_networkFuture;
    teardown->domainFuture = m_domainFuture;
    teardown->filterFuture = m_filterFuture;
    teardown->socketDirectory = std::move(m_socketDirectory);
    return teardown;
}

void LibvirtGuestMachine::stop()
{
    if (state() == State::Stopping || state() == State::Stopped)
        return;
    m_teardown = beginTeardown();
    m_teardownFuture = runOnWorker(
        m_environment.workers, this, [teardown = m_teardown] { teardown->run(); },
        [this] {
            if (!m_teardown) // stopAndWait() took it
                return;
            m_report = std::exchange(m_teardown, nullptr)->report;
            setState(State::Stopped);
            emit stopped(m_report);
        });
}

GuestTeardown LibvirtGuestMachine::stopAndWait()
{
    if (state() == State::Stopped)
        return m_report;
    if (state() == State::Stopping) {
        m_teardownFuture.waitForFinished();
    } else {
        m_teardown = beginTeardown();
        m_teardown->run();
    }
    m_report = std::exchange(m_teardown, nullptr)->report;
    setState(State::Stopped);
    return m_report;
}

} // namespace arizuko::turns
