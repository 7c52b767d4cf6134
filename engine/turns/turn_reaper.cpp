#include "turns/turn_reaper.h"

#include "core/soft_assert.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_owner.h"
#include "libvirt/turn_tap.h"
#include "store/timestamp.h"
#include "turns/egress_proxy.h"
#include "turns/engine_process.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace arizuko::turns {
namespace {

const QString turnPrefix = QStringLiteral("az-");
// The accelerator probe's VM: always autodestroyed with its engine, and
// possibly another live engine's, so never reaped here.
const QString probePrefix = QStringLiteral("az-probe");

// A turn's object is an orphan unless a live turn in our store or a live
// engine (possibly one with another data directory) owns it.
bool isOrphan(const QString &name, const QString &owner, const QSet<QString> &protectedNames)
{
    if (!name.startsWith(turnPrefix) || name.startsWith(probePrefix) ||
        protectedNames.contains(name))
        return false;
    return owner.isEmpty() || !EngineProcess::fromMark(owner).isAlive();
}

} // namespace

void ReapReport::settle(const Result<void> &removal, QStringList &removed, const QString &name)
{
    if (removal)
        removed << name;
    else
        leftBehind << QStringLiteral("%1: %2").arg(name, removal.error().message);
}

QList<TurnProxyProcess> turnProxyProcesses()
{
    const QByteArray turnMarker = QByteArray(turnEnvironmentVariable) + '=';
    const QByteArray ownerMarker = QByteArray(ownerEnvironmentVariable) + '=';
    QList<TurnProxyProcess> processes;
    const QStringList pids =
        QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : pids) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile command(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!command.open(QIODevice::ReadOnly))
            continue;
        const QByteArray program = command.readAll().split('\0').value(0);
        if (!program.endsWith("arizuko-egress"))
            continue;
        QFile environment(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environment.open(QIODevice::ReadOnly))
            continue;
        TurnProxyProcess process{pid, {}, {}};
        for (const QByteArray &variable : environment.readAll().split('\0')) {
            if (variable.startsWith(turnMarker))
                process.turn = QString::fromUtf8(variable.mid(turnMarker.size()));
            else if (variable.startsWith(ownerMarker))
                process.owner = QString::fromUtf8(variable.mid(ownerMarker.size()));
        }
        if (!process.turn.isEmpty())
            processes << process;
    }
    return processes;
}

Result<ReapReport> reapOrphans(libvirt::Connection &connection, TurnRecords &records,
                               const QSet<QString> &ownLive)
{
    ReapReport report;
    const auto live = records.live();
    if (!live)
        return live.error();
    QSet<QString> protectedNames = ownLive;
    for (const TurnRecord &turn : *live) {
        if (ownLive.contains(turn.name))
            continue;
        const EngineProcess owner{turn.enginePid, turn.engineStarted};
        if (owner.isAlive()) {
            protectedNames.insert(turn.name);
            continue;
        }
        const QString at = store::nowTimestamp();
        AZ_ASSERT_OK(records.setError(turn.id, QStringLiteral("turns.interrupted"),
                                      QStringLiteral("the engine running this turn stopped "
                                                     "(pid %1); its events up to then are kept")
                                          .arg(turn.enginePid)),
                     "recording why a turn was interrupted");
        AZ_ASSERT_OK(records.setState(turn.id, TurnState::Interrupted, at),
                     "marking a turn interrupted");
        report.interruptedTurns << turn.name;
    }

    const auto domains = connection.domainNames();
    if (!domains)
        return domains.error();
    for (const QString &name : *domains) {
        if (!isOrphan(name, libvirt::ownerFromXml(connection.domainXml(name)), protectedNames))
            continue;
        report.settle(libvirt::destroyDomainByName(connection, name), report.domains, name);
    }
    const auto networks = connection.networkNames();
    if (!networks)
        return networks.error();
    for (const QString &name : *networks) {
        if (!isOrphan(name, libvirt::ownerFromXml(connection.networkXml(name)), protectedNames))
            continue;
        report.settle(libvirt::destroyNetworkByName(connection, name), report.networks, name);
    }
    // Taps and bindings the engine made (Pretap mode) outlive the VM and the
    // bridge: a tap carries its owner in its alias; a tap libvirt made for a
    // Classic turn has none and belongs to its live domain, if any.
    QHash<QString, QString> tapOwners;
    for (const libvirt::TurnTap &tap : libvirt::turnTaps()) {
        const QString turn = libvirt::turnOfTap(tap.name);
        tapOwners.insert(tap.name, tap.owner.isEmpty()
                                       ? libvirt::ownerFromXml(connection.domainXml(turn))
                                       : tap.owner);
    }
    const auto bindings = connection.filterBindingPorts();
    if (!bindings)
        return bindings.error();
    for (const QString &tap : *bindings) {
        const QString turn = libvirt::turnOfTap(tap);
        const QString owner = tapOwners.contains(tap)
                                  ? tapOwners.value(tap)
                                  : libvirt::ownerFromXml(connection.domainXml(turn));
        if (turn.isEmpty() || !isOrphan(turn, owner, protectedNames))
            continue;
        report.settle(libvirt::deleteTurnFilterBinding(connection, tap), report.filterBindings,
                      tap);
    }
    for (auto tap = tapOwners.cbegin(); tap != tapOwners.cend(); ++tap) {
        if (!isOrphan(libvirt::turnOfTap(tap.key()), tap.value(), protectedNames))
            continue;
        report.settle(libvirt::deleteTurnTap(tap.key()), report.taps, tap.key());
    }
    for (const TurnProxyProcess &proxy : turnProxyProcesses()) {
        if (!isOrphan(proxy.turn, proxy.owner, protectedNames))
            continue;
        if (::kill(pid_t(proxy.pid), SIGKILL) == 0 || errno == ESRCH)
            report.proxies << proxy.pid;
        else
            report.leftBehind << QStringLiteral("proxy process %1: %2")
                                     .arg(proxy.pid)
                                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
    }
    return report;
}

} // namespace arizuko::turns
