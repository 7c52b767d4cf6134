#include "turns/spare_guest.h"

#include "libvirt/channel_directory.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_tap.h"
#include "store/store.h"
#include "turns/egress_proxy.h"
#include "turns/guest_channel.h"
#include "turns/guest_proxy_options.h"
#include "turns/turn_domain_spec.h"
#include "turns/turn_objects.h"

#include <QDir>
#include <QUuid>
#include <QtConcurrent>

namespace arizuko::turns {

// What the workers make, kept until the spare is adopted or torn down, so a
// teardown can wait for a creation still in flight and destroy its result.
struct SpareGuest::Making
{
    std::optional<Result<std::unique_ptr<libvirt::TurnNetwork>>> network;
    std::optional<Result<std::unique_ptr<libvirt::TurnDomain>>> domain;
    // Pretap mode: the tap is made, the filter bound, the guest's tracked
    // connections forgotten and the rules read back, all before QEMU
    // starts: the spare is off the user's path, so nothing runs beside it.
    Result<void> filter;
    QString tap;
    QJsonObject timings;
};

SpareBasis SpareBasis::of(const QString &folder, const TurnPlan &plan)
{
    return {folder, plan.home, plan.allow, plan.deny, plan.allowAll, plan.allowLoopback};
}

QString SpareBasis::differenceFrom(const SpareBasis &now) const
{
    QStringList changed;
    if (folder != now.folder)
        changed << QStringLiteral("the folder");
    // A folder moved away and another added under its name has another
    // home id; a home directory replaced under the same id another inode.
    if (home.id != now.home.id)
        changed << QStringLiteral("the folder's identity");
    else if (home.identity != now.home.identity || home.path != now.home.path)
        changed << QStringLiteral("the folder's home");
    if (allow != now.allow)
        changed << QStringLiteral("the allowlist");
    if (deny != now.deny)
        changed << QStringLiteral("the denylist");
    if (allowAll != now.allowAll)
        changed << QStringLiteral("the egress grant");
    if (allowLoopback != now.allowLoopback)
        changed << QStringLiteral("the demo page's loopback access");
    if (changed.isEmpty())
        return {};
    return changed.join(QStringLiteral(", ")) + QStringLiteral(" changed since the spare was made");
}

SpareGuest::SpareGuest(TurnEnvironment &environment, SpareBasis basis, QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_basis(std::move(basis))
    , m_name(QStringLiteral("az-") +
             QUuid::createUuid().toString(QUuid::WithoutBraces).left(8))
    , m_making(std::make_shared<Making>())
{
    connect(&m_networkWatcher, &QFutureWatcher<void>::finished, this,
            &SpareGuest::onNetworkCreated);
    connect(&m_domainWatcher, &QFutureWatcher<void>::finished, this,
            &SpareGuest::onDomainCreated);
    connect(&m_teardownWatcher, &QFutureWatcher<void>::finished, this, &SpareGuest::released);
    m_maxAge.setSingleShot(true);
    m_maxAge.setInterval(m_environment.settings.spareMaxAge);
    connect(&m_maxAge, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("the spare is older than %1 s")
                 .arg(m_environment.settings.spareMaxAge.count()));
    });
}

SpareGuest::~SpareGuest()
{
    if (!m_gone)
        discard();
    // The engine is going away: nothing of the spare may outlive it.
    m_teardownWatcher.waitForFinished();
}

void SpareGuest::start()
{
    m_connection = m_environment.connection;
    m_age.start();
    m_step.start();
    const QString directory =
        QDir(m_environment.store.dataDir()).filePath(QStringLiteral("spares/") + m_name);
    m_consoleLogPath = QDir(directory).filePath(QStringLiteral("console.log"));
    auto sockets = libvirt::makeChannelDirectory(m_name);
    if (!sockets) {
        fail(sockets.error().message);
        return;
    }
    m_socketDirectory = std::move(sockets.value());
    if (const Result<void> home = checkTurnHome(m_environment.store.dataDir(), m_basis.home);
        !home) {
        fail(home.error().message);
        return;
    }
    if (!QDir().mkpath(directory)) {
        fail(QStringLiteral("cannot create %1").arg(directory));
        return;
    }
    m_networkWatcher.setFuture(QtConcurrent::run(
        m_environment.workers,
        [making = m_making, connection = m_environment.connection, name = m_name,
         pool = m_environment.pool, taken = m_environment.subnetsInUse(),
         owner = m_environment.owner] {
            making->network = libvirt::TurnNetwork::createInPool(
                connection, name, pool, libvirt::routedRanges() + taken, owner);
        }));
}

void SpareGuest::onNetworkCreated()
{
    if (m_gone)
        return;
    if (!m_making->network->ok()) {
        fail(m_making->network->error().message);
        return;
    }
    m_network = std::move(m_making->network->value());
    m_making->network.reset();
    m_subnet = m_network->subnet().range;
    m_timings.insert(QStringLiteral("network"), m_step.restart());
    startProxy();
}

void SpareGuest::startProxy()
{
    m_proxy = std::make_unique<EgressProxy>(
        guestProxyOptions(m_environment, m_name, m_network->subnet(), m_basis.allow, m_basis.deny,
                          m_basis.allowAll, m_basis.allowLoopback));
    connect(m_proxy.get(), &EgressProxy::healthy, this, &SpareGuest::createDomain,
            Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::failed, this,
        [this](const Error &error) { fail(error.message); }, Qt::QueuedConnection);
    connect(
        m_proxy.get(), &EgressProxy::died, this,
        [this](const QString &why) { fail(QStringLiteral("the spare's proxy ended: ") + why); },
        Qt::QueuedConnection);
    m_proxy->start();
}

void SpareGuest::createDomain()
{
    if (m_gone)
        return;
    m_timings.insert(QStringLiteral("proxy-healthy"), m_step.restart());
    // The guest waits for its spec as long as the spare may live.
    libvirt::TurnDomainSpec spec =
        turnDomainSpec(m_environment.settings, m_environment.accelerator.accelerator,
                       {m_name, m_environment.owner, m_basis.home.path, m_socketDirectory->path(),
                        m_consoleLogPath, int(m_environment.settings.spareMaxAge.count()) + 60});
    const libvirt::TurnSubnet &subnet = m_network->subnet();
    spec.networkName = m_network->name();
    spec.filter = {subnet.guestAddress(), subnet.hostAddress(), m_proxy->port(),
                   m_environment.settings.gatewayPort};
    if (spec.filterMode == libvirt::FilterMode::Pretap)
        m_tap = m_making->tap = spec.tapName;
    m_spec = spec;
    m_domainWatcher.setFuture(QtConcurrent::run(
        m_environment.workers,
        [making = m_making, connection = m_connection, spec] {
            QElapsedTimer step;
            if (spec.filterMode == libvirt::FilterMode::Pretap) {
                step.start();
                const libvirt::TurnFilterBindingSpec binding{spec.name, spec.uuid, spec.tapName,
                                                             spec.macAddress, spec.filter};
                Result<void> filtered =
                    libvirt::createTurnTap(spec.tapName, spec.networkName, spec.owner);
                if (filtered)
                    filtered = libvirt::createTurnFilterBinding(*connection, binding);
                if (filtered)
                    filtered =
                        libvirt::flushTurnConntrack(spec.networkName, spec.filter.guestAddress);
                if (filtered)
                    filtered = libvirt::verifyTurnFilterRules(spec.tapName, spec.filter);
                making->timings.insert(QStringLiteral("filter"), step.elapsed());
                if (!filtered) {
                    making->filter = filtered;
                    return;
                }
            }
            step.start();
            making->domain = libvirt::TurnDomain::create(connection, spec);
            making->timings.insert(QStringLiteral("domain"), step.elapsed());
        }));
}

void SpareGuest::onDomainCreated()
{
    if (m_gone)
        return;
    for (const QString &step : m_making->timings.keys())
        m_timings.insert(step, m_making->timings.value(step));
    // No verified filter, no spare: a turn never gets a guest whose rules
    // were not seen in force.
    if (!m_making->filter) {
        fail(m_making->filter.error().message);
        return;
    }
    if (!m_making->domain->ok()) {
        fail(m_making->domain->error().message);
        return;
    }
    m_domain = std::move(m_making->domain->value());
    m_making->domain.reset();

    m_channel = std::make_unique<GuestChannel>(m_socketDirectory->filePath(QStringLiteral("turn.sock")));
    connect(
        m_channel.get(), &GuestChannel::message, this,
        [this](const QJsonObject &message) { m_guestMessages << message; }, Qt::QueuedConnection);
    connect(
        m_channel.get(), &GuestChannel::closed, this,
        [this] { fail(QStringLiteral("the spare's guest stopped; see ") + m_consoleLogPath); },
        Qt::QueuedConnection);
    connect(
        m_channel.get(), &GuestChannel::unreachable, this,
        [this](const QString &why) { fail(why); }, Qt::QueuedConnection);
    m_channel->open();
    m_ready = true;
    m_maxAge.start();
    emit ready();
}

SpareParts SpareGuest::adopt()
{
    m_gone = true;
    m_ready = false;
    m_maxAge.stop();
    // The turn connects its own handlers; none of the spare's may fire.
    disconnect(m_proxy.get(), nullptr, this, nullptr);
    disconnect(m_channel.get(), nullptr, this, nullptr);
    SpareParts parts;
    parts.name = m_name;
    parts.network = std::move(m_network);
    parts.domain = std::move(m_domain);
    parts.proxy = std::move(m_proxy);
    parts.channel = std::move(m_channel);
    parts.socketDirectory = std::move(m_socketDirectory);
    parts.tap = std::exchange(m_tap, QString());
    parts.spec = m_spec;
    parts.consoleLogPath = m_consoleLogPath;
    parts.guestMessages = std::exchange(m_guestMessages, {});
    parts.ageMs = m_age.elapsed();
    parts.timings = m_timings;
    m_subnet.reset();
    return parts;
}

void SpareGuest::discard()
{
    if (m_gone)
        return;
    m_gone = true;
    m_ready = false;
    m_maxAge.stop();
    // The guest's way out first, as for a turn.
    if (m_proxy) {
        m_proxy->stop();
        m_proxy.reset();
    }
    if (m_channel) {
        m_channel->close();
        m_channel.reset();
    }
    auto objects = std::make_shared<TurnObjects>();
    objects->libvirtUri = m_environment.settings.libvirtUri;
    objects->name = m_name;
    objects->connection = m_connection;
    objects->tap = m_tap;
    objects->domain = std::move(m_domain);
    objects->network = std::move(m_network);
    m_teardownWatcher.setFuture(QtConcurrent::run(
        m_environment.workers,
        [objects, making = m_making, network = m_networkWatcher.future(),
         domain = m_domainWatcher.future(), sockets = std::shared_ptr<QTemporaryDir>(
                                                std::move(m_socketDirectory)),
         directory = QFileInfo(m_consoleLogPath).absolutePath()]() mutable {
            // Creations still in flight finish first, so nothing they make is left.
            network.waitForFinished();
            domain.waitForFinished();
            if (making->network && making->network->ok())
                objects->network = std::move(making->network->value());
            if (making->domain && making->domain->ok())
                objects->domain = std::move(making->domain->value());
            if (!making->tap.isEmpty())
                objects->tap = making->tap;
            QJsonObject timings;
            QStringList errors;
            destroyTurnObjects(*objects, {}, timings, errors);
            for (const QString &error : errors)
                qWarning("spare %s: %s", qPrintable(objects->name), qPrintable(error));
            sockets.reset();
            QDir(directory).removeRecursively();
        }));
}

void SpareGuest::fail(const QString &why)
{
    if (m_gone)
        return;
    emit lost(why);
}

} // namespace arizuko::turns
