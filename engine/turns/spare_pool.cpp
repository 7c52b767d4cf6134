#include "turns/spare_pool.h"

#include "core/actors.h"
#include "policy/policy.h"
#include "policy/request_rule.h"
#include "secrets/secret_bindings.h"
#include "store/store.h"
#include "turns/guest_proxy_options.h"
#include "turns/turn.h"

#include <QDir>
#include <QUuid>

namespace arizuko::turns {

namespace {

QStringList secretNames(const QList<secrets::SecretBinding> &bindings)
{
    QStringList names;
    for (const secrets::SecretBinding &binding : bindings)
        names << binding.folder + u'/' + binding.key;
    return names;
}

QStringList boundSecretNames(const QList<BoundSecret> &bound)
{
    QList<secrets::SecretBinding> bindings;
    for (const BoundSecret &secret : bound)
        bindings << secret.binding;
    return secretNames(bindings);
}

} // namespace

SpareBasis SpareBasis::of(const QString &folder, const TurnPlan &plan)
{
    return {folder,
            plan.home,
            plan.allow,
            plan.deny,
            plan.allowAll,
            plan.allowLoopback,
            plan.unlisted,
            policy::proxyRequestRules(plan.network),
            boundSecretNames(plan.boundSecrets),
            {}};
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
    if (unlisted != now.unlisted)
        changed << QStringLiteral("the setting for unlisted hosts");
    if (rules != now.rules)
        changed << QStringLiteral("the rules by method and path");
    if (boundSecrets != now.boundSecrets)
        changed << QStringLiteral("the bound secrets");
    if (changed.isEmpty())
        return {};
    return changed.join(QStringLiteral(", ")) + QStringLiteral(" changed since the spare was made");
}

namespace {

void removeSpareDirectory(const GuestMachine &machine)
{
    QDir(QFileInfo(machine.consoleLogPath()).absolutePath()).removeRecursively();
}

} // namespace

SparePool::SparePool(TurnEnvironment &environment, QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_prestart(environment)
{
    m_maxAge.setSingleShot(true);
    connect(&m_maxAge, &QTimer::timeout, this, [this] {
        if (m_spare)
            emit lost(QStringLiteral("the spare is older than %1 s")
                          .arg(m_environment.settings.spareMaxAge.count()));
    });
    m_settle.setSingleShot(true);
    connect(&m_settle, &QTimer::timeout, this, &SparePool::onSettled);
}

SparePool::~SparePool()
{
    // The engine is going away: nothing of a spare may outlive it.
    if (m_spare)
        m_discarded.push_back(std::move(m_spare->machine));
    for (const auto &machine : m_discarded) {
        disconnect(machine.get(), nullptr, this, nullptr);
        const GuestTeardown teardown = machine->stopAndWait();
        for (const QString &error : teardown.errors)
            qWarning("spare %s: %s", qPrintable(machine->name()), qPrintable(error));
        removeSpareDirectory(*machine);
    }
}

QString SparePool::spareName() const
{
    return m_spare ? m_spare->machine->name() : QString();
}

bool SparePool::isReady() const
{
    return m_spare && m_spare->machine->state() == GuestMachine::State::Ready;
}

bool SparePool::connectionAlive() const
{
    return m_spare && m_spare->connection && m_spare->connection->isAlive();
}

QList<libvirt::Ipv4Range> SparePool::subnets() const
{
    QList<libvirt::Ipv4Range> ranges;
    if (m_spare) {
        if (const auto subnet = m_spare->machine->subnet())
            ranges << subnet->range;
    }
    for (const auto &machine : m_discarded) {
        if (const auto subnet = machine->subnet())
            ranges << subnet->range;
    }
    return ranges;
}

Result<SpareBasis> SparePool::basisFor(const QString &folder) const
{
    SpareBasis basis;
    basis.folder = folder;
    const Result<TurnHome> home = resolveTurnHome(m_environment.store, folder);
    if (!home)
        return home.error();
    basis.home = *home;
    const auto network = policy::Policy(m_environment.store).network().resolve(folder);
    if (!network)
        return network.error();
    basis.allow = network->allow;
    basis.deny = network->deny;
    basis.allowAll = network->allowAll;
    basis.rules = policy::proxyRequestRules(*network);
    const auto bindings =
        secrets::SecretBindings(m_environment.store, actors::turns).visibleFrom(folder);
    if (!bindings)
        return bindings.error();
    basis.boundSecrets = secretNames(*bindings);
    const auto unlisted = unlistedHostsPolicy(m_environment.store, folder);
    if (!unlisted)
        return unlisted.error();
    basis.unlisted = *unlisted;
    basis.agent = m_prestart.agentFor(folder);
    return basis;
}

void SparePool::startTurn(Turn &turn, const Result<TurnPlan> &plan)
{
    if (!isReady() || !isFor(turn.folder())) {
        turn.start(plan);
        return;
    }
    // What the turn would run with now, against what the spare was made
    // with: a changed rule, grant or home means the spare's proxy or share
    // is stale, and a stale allowlist is never used.
    QString stale = plan ? m_spare->basis.differenceFrom(SpareBasis::of(turn.folder(), *plan))
                         : plan.error().message;
    if (stale.isEmpty() && !connectionAlive())
        stale = QStringLiteral("libvirtd closed the connection the spare was made on");
    // Right before the turn is handed to the spare: the directory its VM
    // shares (opened when the spare booted) is still the folder's home, at
    // its place and reached through no link. A home replaced after the plan
    // was resolved matches the basis but not this.
    std::optional<Error> unsafe;
    if (stale.isEmpty()) {
        if (const Result<void> home =
                checkTurnHome(m_environment.store.dataDir(), m_spare->basis.home);
            !home) {
            unsafe = home.error();
            stale = home.error().message;
        }
    }
    if (!stale.isEmpty()) {
        turn.recordSpareSkipped(spareName(), stale);
        discard(stale);
        if (unsafe)
            turn.start(*unsafe);
        else
            turn.start(plan);
        return;
    }
    TurnPlan warm = *plan;
    const QString refusal = prestartRefusal(turn, warm);
    turn.startWarm(warm, adopt(), refusal);
}

QString SparePool::prestartRefusal(const Turn &turn, TurnPlan &plan)
{
    if (!m_spare->basis.agent || !m_spare->services)
        return {};
    return m_prestart.refusal(*m_spare->basis.agent,
                              {turn.folder(), turn.topic(), turn.agent(), turn.model()}, plan,
                              m_spare->services->grantsShellEnvironment());
}

void SparePool::boot(SpareBasis basis)
{
    if (m_spare && m_spare->basis.folder == basis.folder)
        return;
    if (m_spare)
        discard(QStringLiteral("the next turn is more likely in %1").arg(basis.folder));
    const QString name =
        QStringLiteral("az-") + QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
    GuestMachineSpec spec{
        name,
        basis.home,
        QDir(m_environment.store.dataDir()).filePath(QStringLiteral("spares/") + name),
        basis.allow,
        basis.deny,
        basis.allowAll,
        basis.allowLoopback,
        basis.unlisted,
        basis.folder,
        // The guest waits for its spec as long as the spare may live.
        int(m_environment.settings.spareMaxAge.count()) + 60,
        // No rules: a folder whose proxy inspects gets no spare (prepare).
        {},
        {},
        {},
        {}};
    m_spare = Spare{m_environment.makeMachine(std::move(spec)),
                    std::move(basis),
                    m_environment.connection,
                    {},
                    {},
                    {},
                    {}};
    m_spare->age.start();
    GuestMachine *machine = m_spare->machine.get();
    if (m_spare->basis.agent)
        connect(machine, &GuestMachine::networkReady, this,
                [this, machine] { startServices(machine); });
    connect(machine, &GuestMachine::ready, this, [this, machine] {
        if (!m_spare || m_spare->machine.get() != machine)
            return;
        prestart(machine);
        m_maxAge.start(m_environment.settings.spareMaxAge);
        emit ready(machine->name(), m_spare->basis.folder);
    });
    connect(machine, &GuestMachine::guestMessage, this,
            [this, machine](const QJsonObject &message) {
                if (m_spare && m_spare->machine.get() == machine)
                    m_spare->guestMessages << message;
            });
    connect(machine, &GuestMachine::failed, this,
            [this, machine](const Error &error) { loseLater(machine, error.message); });
    connect(machine, &GuestMachine::guestClosed, this, [this, machine] {
        loseLater(machine,
                  QStringLiteral("the spare's guest stopped; see ") + machine->consoleLogPath());
    });
    machine->start();
}

void SparePool::prepare(const QString &folder, int liveTurns)
{
    if (!m_environment.settings.warmStart || isFor(folder))
        return;
    if (liveTurns >= m_environment.settings.maxConcurrentTurns) {
        discard(QStringLiteral("the next turn is more likely in %1").arg(folder));
        return;
    }
    // A folder whose proxy inspects hosts starts its turns cold: the turn's
    // CA is made for the turn, with its deadline, and its bound secrets'
    // placeholders with it.
    if (const Result<SpareBasis> basis = basisFor(folder);
        basis && basis->rules.isEmpty() && basis->boundSecrets.isEmpty())
        boot(*basis);
}

void SparePool::startServices(GuestMachine *machine)
{
    if (!m_spare || m_spare->machine.get() != machine)
        return;
    // Bound to the folder alone until a turn adopts the spare (bind()).
    m_spare->services = std::make_unique<TurnServices>(
        m_environment, TurnServiceBinding{QString(), m_spare->basis.folder, QString(), 0});
    connect(m_spare->services.get(), &TurnServices::event, this,
            [this](const QString &kind, const QJsonObject &json) {
                if (m_spare)
                    m_spare->serviceEvents.append({kind, json});
            });
    if (const Result<void> listening = m_spare->services->start(*machine->subnet(), std::nullopt);
        !listening)
        loseLater(machine, listening.error().message);
}

void SparePool::prestart(GuestMachine *machine)
{
    if (!m_spare->basis.agent || !m_spare->services || !m_spare->services->isListening())
        return;
    TurnSpecPlace place;
    place.folder = m_spare->basis.folder;
    place.subnet = *machine->subnet();
    place.proxyPort = machine->proxyPort();
    place.gatewayPort = m_environment.settings.gatewayPort;
    place.gatewayToken = m_spare->services->token();
    machine->send(prestartMessage(*m_spare->basis.agent, place));
}

void SparePool::loseLater(GuestMachine *machine, const QString &why)
{
    // Not from inside the machine's own signal: losing it destroys it.
    QTimer::singleShot(0, this, [this, machine, why] {
        if (m_spare && m_spare->machine.get() == machine)
            emit lost(why);
    });
}

void SparePool::settle(const QString &folder)
{
    m_settling = folder;
    m_settle.start(settleTime);
}

void SparePool::onSettled()
{
    // A spare costs a VM's boot: no more than a few a minute, however the
    // user moves through the tree.
    while (!m_settledBoots.empty() && m_settledBoots.front().hasExpired(60000))
        m_settledBoots.pop_front();
    if (int(m_settledBoots.size()) >= maxSettledBootsPerMinute) {
        m_settle.start(std::chrono::milliseconds(60000 - m_settledBoots.front().elapsed()));
        return;
    }
    m_settledBoots.emplace_back().start();
    emit settled(m_settling);
}

BootedGuest SparePool::adopt()
{
    if (!isReady())
        return {};
    m_maxAge.stop();
    Spare spare = std::move(*m_spare);
    m_spare.reset();
    disconnect(spare.machine.get(), nullptr, this, nullptr);
    if (spare.services)
        disconnect(spare.services.get(), nullptr, this, nullptr);
    return {std::move(spare.machine),     std::move(spare.guestMessages),
            spare.age.elapsed(),          std::move(spare.services),
            std::move(spare.basis.agent), std::move(spare.serviceEvents)};
}

void SparePool::discard(const QString &why)
{
    if (!m_spare)
        return;
    m_maxAge.stop();
    std::unique_ptr<GuestMachine> machine = std::move(m_spare->machine);
    m_spare.reset();
    GuestMachine *stopping = machine.get();
    disconnect(stopping, nullptr, this, nullptr);
    connect(
        stopping, &GuestMachine::stopped, this, [this, stopping](const GuestTeardown &teardown) {
            for (const QString &error : teardown.errors)
                qWarning("spare %s: %s", qPrintable(stopping->name()), qPrintable(error));
            removeSpareDirectory(*stopping);
            // Destroyed later: the machine is still inside its own signal here.
            QTimer::singleShot(0, this, [this, stopping] {
                std::erase_if(m_discarded,
                              [stopping](const auto &owned) { return owned.get() == stopping; });
            });
        });
    emit discarded(stopping->name(), why);
    stopping->stop();
    m_discarded.push_back(std::move(machine));
}

} // namespace arizuko::turns
