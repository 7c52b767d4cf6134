#include "libvirt/accelerator_choice.h"

#include "host/kvm_probe.h"
#include "libvirt/handles.h"
#include "libvirt/turn_domain.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QThread>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {
namespace {

QString bootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll().trimmed())
                                          : QString();
}

// What a cached decision is valid for: this host boot (KVM modules and
// nesting can change across reboots) and this guest kernel.
QString cacheKey(const AcceleratorProbeInputs &inputs)
{
    const QFileInfo kernel(inputs.kernel);
    const QString identity = QStringLiteral("%1|%2|%3|%4")
                                 .arg(bootId(), kernel.absoluteFilePath())
                                 .arg(kernel.size())
                                 .arg(kernel.lastModified().toMSecsSinceEpoch());
    return QString::fromLatin1(
        QCryptographicHash::hash(identity.toUtf8(), QCryptographicHash::Sha256).toHex());
}

std::optional<host::AcceleratorChoice> cachedChoice(const AcceleratorProbeInputs &inputs)
{
    QFile file(inputs.cacheFile);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject cached = QJsonDocument::fromJson(file.readAll()).object();
    if (cached.value(QStringLiteral("key")).toString() != cacheKey(inputs))
        return std::nullopt;
    const QString name = cached.value(QStringLiteral("accelerator")).toString();
    const host::Accelerator accelerator =
        name == QLatin1String("kvm") ? host::Accelerator::Kvm : host::Accelerator::Tcg;
    return host::AcceleratorChoice{accelerator, cached.value(QStringLiteral("reason")).toString() +
                                                    QStringLiteral(" (cached)")};
}

void storeChoice(const AcceleratorProbeInputs &inputs, const host::AcceleratorChoice &choice)
{
    QDir().mkpath(QFileInfo(inputs.cacheFile).absolutePath());
    QSaveFile file(inputs.cacheFile);
    if (!file.open(QIODevice::WriteOnly))
        return;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("key"), cacheKey(inputs)},
                                         {QStringLiteral("accelerator"),
                                          host::acceleratorName(choice.accelerator)},
                                         {QStringLiteral("reason"), choice.reason}})
                   .toJson(QJsonDocument::Compact));
    file.commit();
}

// Boots the guest kernel under KVM with no disk, NIC or share and waits for
// the kernel to hand over to init, which it announces on the console.
host::AcceleratorChoice probeGuestBoot(Connection &connection, const AcceleratorProbeInputs &inputs)
{
    const QString name =
        QStringLiteral("az-probe%1")
            .arg(QRandomGenerator::global()->generate() & 0xffff, 4, 16, QLatin1Char('0'));
    QDir().mkpath(inputs.scratchDirectory);
    const QString console = QDir(inputs.scratchDirectory).filePath(name + QStringLiteral(".log"));
    // Made here and appended to by libvirt (append='on'), so that an engine
    // that is not root can read it: libvirt would make a new one, 0600 root.
    if (QFile log(console); !log.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {host::Accelerator::Tcg,
                QStringLiteral("the KVM probe cannot write its console log %1 (%2); using TCG")
                    .arg(console, log.errorString())};
    const QString xml =
        QStringLiteral("<domain type='kvm'><name>%1</name><memory unit='MiB'>256</memory>"
                       "<os><type arch='x86_64' machine='pc'>hvm</type><kernel>%2</kernel>"
                       "<initrd>%3</initrd><cmdline>console=ttyS0 panic=-1 rdinit=/nonexistent"
                       "</cmdline></os><cpu mode='host-passthrough'/>"
                       "<on_poweroff>destroy</on_poweroff><on_reboot>destroy</on_reboot>"
                       "<devices><serial type='file'><source path='%4' append='on'/><target "
                       "port='0'/></serial>"
                       "<memballoon model='none'/></devices>"
                       "<seclabel type='static' model='dac' relabel='no'><label>+%5:+%6</label>"
                       "</seclabel></domain>")
            .arg(name, inputs.kernel.toHtmlEscaped(), inputs.initramfs.toHtmlEscaped(),
                 console.toHtmlEscaped())
            .arg(inputs.uid)
            .arg(inputs.gid);
    const QByteArray xmlBytes = xml.toUtf8();
    const DomainHandle domain(
        virDomainCreateXML(connection.get(), xmlBytes.constData(), VIR_DOMAIN_START_AUTODESTROY));
    if (!domain)
        return {host::Accelerator::Tcg,
                QStringLiteral("a KVM guest could not be started (%1); using TCG")
                    .arg(QString::fromUtf8(virGetLastErrorMessage()))};
    QElapsedTimer clock;
    clock.start();
    bool booted = false;
    while (clock.elapsed() < inputs.bootTimeout.count()) {
        QFile log(console);
        if (log.open(QIODevice::ReadOnly) && log.readAll().contains("Freeing unused kernel")) {
            booted = true;
            break;
        }
        QThread::msleep(50);
    }
    virDomainDestroy(domain.get());
    QFile::remove(console);
    if (booted)
        return {host::Accelerator::Kvm,
                QStringLiteral("the guest kernel booted under KVM in %1 ms").arg(clock.elapsed())};
    return {host::Accelerator::Tcg,
            QStringLiteral("no KVM: a guest kernel hung under KVM for %1 ms (nested or broken "
                           "KVM); falling back to TCG emulation, which is much slower")
                .arg(inputs.bootTimeout.count())};
}

} // namespace

Result<AcceleratorSetting> parseAcceleratorSetting(const QString &text)
{
    if (text.isEmpty() || text == QLatin1String("auto"))
        return AcceleratorSetting::Auto;
    if (text == QLatin1String("kvm"))
        return AcceleratorSetting::Kvm;
    if (text == QLatin1String("tcg"))
        return AcceleratorSetting::Tcg;
    return makeError(QStringLiteral("turns.bad-accelerator"),
                     QStringLiteral("accelerator '%1' is not one of auto, kvm, tcg").arg(text));
}

host::AcceleratorChoice chooseTurnAccelerator(Connection &connection, AcceleratorSetting setting,
                                              const AcceleratorProbeInputs &inputs)
{
    if (setting == AcceleratorSetting::Kvm)
        return {host::Accelerator::Kvm, QStringLiteral("forced by the accelerator setting")};
    if (setting == AcceleratorSetting::Tcg)
        return {host::Accelerator::Tcg, QStringLiteral("forced by the accelerator setting")};
    if (const auto cached = cachedChoice(inputs))
        return *cached;

    host::AcceleratorChoice choice;
    if (!connection.offersKvmDomains()) {
        choice = {host::Accelerator::Tcg,
                  QStringLiteral("no KVM: libvirt offers no kvm domains here; falling back to TCG "
                                 "emulation, which is much slower")};
    } else if (const host::KvmProbeResult vcpu = host::probeKvm(); !vcpu.works) {
        choice = {host::Accelerator::Tcg,
                  QStringLiteral("no KVM: %1; falling back to TCG emulation, which is much slower")
                      .arg(vcpu.detail)};
    } else {
        choice = probeGuestBoot(connection, inputs);
    }
    storeChoice(inputs, choice);
    return choice;
}

} // namespace arizuko::libvirt
