#include "libvirt/machine_status.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <unistd.h>

namespace arizuko::libvirt {
namespace {

// Fills `status` for the daemon at `uri`; the connection when it answered.
std::shared_ptr<Connection> connectAndDescribe(const QString &uri, host::LibvirtStatus &status)
{
    status.uri = uri;
    std::shared_ptr<Connection> connection = Connection::tryOpen(uri, &status.error);
    if (!connection) {
        status.hint = libvirtConnectionHint(uri, status.error);
        return nullptr;
    }
    status.reachable = true;
    status.version = connection->daemonVersion();
    status.kvmDomains = connection->offersKvmDomains();
    return connection;
}

} // namespace

host::LibvirtStatus probeLibvirt(const QString &uri)
{
    host::LibvirtStatus status;
    connectAndDescribe(uri, status);
    return status;
}

host::AcceleratorChoice decideTurnAccelerator(Connection &connection,
                                              const MachineSettings &settings)
{
    const QDir image(settings.guestImageDirectory);
    AcceleratorProbeInputs inputs;
    inputs.kernel = image.filePath(QStringLiteral("vmlinux"));
    inputs.initramfs = image.filePath(QStringLiteral("initramfs.img"));
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
                          QStringLiteral("/arizuko-desktop");
    inputs.cacheFile = cache + QStringLiteral("/accelerator.json");
    inputs.scratchDirectory = cache + QStringLiteral("/probe");
    inputs.uid = ::getuid();
    inputs.gid = ::getgid();
    if (settings.accelerator == AcceleratorSetting::Auto && !QFile::exists(inputs.kernel))
        return {
            host::Accelerator::Tcg,
            QStringLiteral("undecided: no guest kernel to probe KVM with yet (TCG until then)")};
    return chooseTurnAccelerator(connection, settings.accelerator, inputs);
}

host::HostStatus collectMachineStatus(const MachineSettings &settings)
{
    host::HostStatus status;
    status.guestImage = host::inspectGuestImage(settings.guestImageDirectory);
    const std::shared_ptr<Connection> connection =
        connectAndDescribe(settings.libvirtUri, status.libvirt);
    if (!connection) {
        status.accelerator = {host::Accelerator::Tcg, QStringLiteral("libvirt is not reachable")};
        return status;
    }
    status.accelerator = decideTurnAccelerator(*connection, settings);
    return status;
}

} // namespace arizuko::libvirt
