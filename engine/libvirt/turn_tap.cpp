#include "libvirt/turn_tap.h"

#include "libvirt/net_admin.h"

#include <QDir>
#include <QFile>

namespace arizuko::libvirt {
namespace {

const QString tapSuffix = QStringLiteral("-g");
const QString ownerAliasPrefix = QStringLiteral("arizuko-engine=");
const QString sysClassNet = QStringLiteral("/sys/class/net/");

Result<void> failure(const QString &what, const NetAdminOutput &output)
{
    if (output.ok())
        return {};
    return makeError(QStringLiteral("libvirt.tap"),
                     QStringLiteral("%1: %2").arg(
                         what, output.err.isEmpty()
                                   ? QStringLiteral("exit status %1").arg(output.exitCode)
                                   : output.err));
}

// One `ip -batch -` for all steps (a single exec instead of one per step)
// when the engine has CAP_NET_ADMIN, else the helper's `helperSteps`, in order.
Result<void> runIpBatch(const QString &what, const QString &commands,
                        const QList<QStringList> &helperSteps)
{
    if (engineHasNetAdmin())
        return failure(what, runNetAdminStep(QStringLiteral("ip"),
                                             {QStringLiteral("-batch"), QStringLiteral("-")}, {},
                                             commands.toUtf8()));
    for (const QStringList &step : helperSteps) {
        if (const Result<void> done = failure(what, runNetAdminStep({}, {}, step)); !done)
            return done;
    }
    return {};
}

} // namespace

QString turnTapName(const QString &turnName)
{
    return turnName + tapSuffix;
}

QString turnOfTap(const QString &tap)
{
    return tap.endsWith(tapSuffix) ? tap.chopped(tapSuffix.size()) : QString();
}

Result<void> createTurnTap(const QString &tap, const QString &bridge, const QString &owner)
{
    // vnet_hdr: libvirt opens the tap for a virtio NIC with IFF_VNET_HDR and
    // the kernel refuses that on a tap created without it.
    const QString master = bridge.isEmpty() ? QString() : QStringLiteral(" master ") + bridge;
    const Result<void> created = runIpBatch(
        bridge.isEmpty() ? QStringLiteral("creating the turn's tap %1").arg(tap)
                         : QStringLiteral("creating the turn's tap %1 on %2").arg(tap, bridge),
        QStringLiteral("tuntap add dev %1 mode tap vnet_hdr\n"
                       "link set dev %1%2 alias %3%4 up\n")
            .arg(tap, master, ownerAliasPrefix, owner),
        bridge.isEmpty() ? QList<QStringList>{{QStringLiteral("tap-create"), tap, owner}}
                         : QList<QStringList>{{QStringLiteral("tap-create"), tap, owner},
                                              {QStringLiteral("tap-attach"), tap, bridge}});
    if (!created)
        (void)deleteTurnTap(tap); // half made: created but not marked or not on the bridge
    return created;
}

Result<void> attachTurnTap(const QString &tap, const QString &bridge)
{
    return runIpBatch(QStringLiteral("putting the turn's tap %1 on %2").arg(tap, bridge),
                      QStringLiteral("link set dev %1 master %2\n").arg(tap, bridge),
                      {{QStringLiteral("tap-attach"), tap, bridge}});
}

Result<void> deleteTurnTap(const QString &tap)
{
    if (!QFile::exists(sysClassNet + tap))
        return {};
    const Result<void> deleted = runIpBatch(QStringLiteral("deleting the turn's tap %1").arg(tap),
                                            QStringLiteral("link del dev %1\n").arg(tap),
                                            {{QStringLiteral("tap-delete"), tap}});
    // Gone meanwhile (libvirt removes the taps it made with their VM).
    if (!deleted && !QFile::exists(sysClassNet + tap))
        return {};
    return deleted;
}

QList<TurnTap> turnTaps()
{
    QList<TurnTap> taps;
    const QStringList names = QDir(sysClassNet).entryList(QDir::Dirs | QDir::NoDotAndDotDot |
                                                          QDir::System);
    for (const QString &name : names) {
        if (!name.startsWith(QLatin1String("az-")) || !name.endsWith(tapSuffix))
            continue;
        QFile alias(sysClassNet + name + QStringLiteral("/ifalias"));
        QString owner;
        if (alias.open(QIODevice::ReadOnly)) {
            const QString text = QString::fromUtf8(alias.readAll()).trimmed();
            if (text.startsWith(ownerAliasPrefix))
                owner = text.mid(ownerAliasPrefix.size());
        }
        taps << TurnTap{name, owner};
    }
    return taps;
}

} // namespace arizuko::libvirt
