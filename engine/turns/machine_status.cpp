#include "turns/machine_status.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <unistd.h>

namespace arizuko::turns {

host::AcceleratorChoice decideTurnAccelerator(libvirt::Connection &connection,
                                              const RunnerSettings &settings)
{
    const QDir image(settings.guestImageDirectory);
    libvirt::AcceleratorProbeInputs inputs;
    inputs.kernel = image.filePath(QStringLiteral("vmlinux"));
    inputs.initramfs = image.filePath(QStringLiteral("initramfs.img"));
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
                          QStringLiteral("/arizuko-desktop");
    inputs.cacheFile = cache + QStringLiteral("/accelerator.json");
    inputs.scratchDirectory = cache + QStringLiteral("/probe");
    inputs.uid = ::getuid();
    inputs.gid = ::getgid();
    if (settings.accelerator == libvirt::AcceleratorSetting::Auto && !QFile::exists(inputs.kernel))
        return {
            host::Accelerator::Tcg,
            QStringLiteral("undecided: no guest kernel to probe KVM with yet (TCG until then)")};
    return libvirt::chooseTurnAccelerator(connection, settings.accelerator, inputs);
}

host::HostStatus collectMachineStatus(const RunnerSettings &settings)
{
    host::HostStatus status;
    status.libvirt = host::probeLibvirt(settings.libvirtUri);
    status.guestImage = host::inspectGuestImage(settings.guestImageDirectory);
    if (!status.libvirt.reachable) {
        status.accelerator = {host::Accelerator::Tcg, QStringLiteral("libvirt is not reachable")};
        return status;
    }
    auto connection = libvirt::Connection::open(settings.libvirtUri);
    if (!connection) {
        status.accelerator = {host::Accelerator::Tcg, connection.error().message};
        return status;
    }
    status.accelerator = decideTurnAccelerator(**connection, settings);
    return status;
}

} // namespace arizuko::turns
