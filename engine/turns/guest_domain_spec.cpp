#include "turns/guest_domain_spec.h"

#include "libvirt/turn_tap.h"

#include <QDir>
#include <QUuid>
#include <unistd.h>

namespace arizuko::turns {

libvirt::TurnDomainSpec guestDomainSpec(const TurnEnvironment &environment,
                                        const GuestDomainInputs &inputs)
{
    const libvirt::TurnSubnet &subnet = inputs.network->subnet();
    const QDir image(environment.settings.guestImageDirectory);
    const QDir sockets(inputs.socketDirectory);

    libvirt::TurnDomainSpec spec;
    spec.name = inputs.name;
    spec.owner = environment.owner;
    spec.accelerator = environment.accelerator.accelerator;
    spec.memoryMiB = environment.settings.memoryMiB;
    spec.vcpus = environment.settings.vcpus;
    spec.kernel = image.filePath(QStringLiteral("vmlinux"));
    spec.initramfs = image.filePath(QStringLiteral("initramfs.img"));
    spec.rootImage = image.filePath(QStringLiteral("root.img"));
    // acpi=noirq: virtio uses MSI-X alone; routing each device's legacy
    // interrupt through the i440fx ACPI link costs ~0.4 s per device under TCG.
    spec.kernelCommandLine =
        QStringLiteral("console=ttyS0 panic=-1 acpi=noirq arizuko.ip=%1/%2 arizuko.gw=%3")
            .arg(subnet.guestAddress())
            .arg(libvirt::TurnSubnet::prefixLength)
            .arg(subnet.hostAddress());
    // The boot watchdog must outlast the wait for the spec.
    if (inputs.specTimeoutSeconds > 0)
        spec.kernelCommandLine += QStringLiteral(" arizuko.spec_timeout=%1 arizuko.boot_timeout=%2")
                                      .arg(inputs.specTimeoutSeconds)
                                      .arg(inputs.specTimeoutSeconds + 120);
    spec.homeDirectory = inputs.homeDirectory;
    spec.networkName = inputs.network->name();
    spec.macAddress = libvirt::randomMacAddress();
    spec.tapName = libvirt::turnTapName(inputs.name);
    spec.filterMode = environment.settings.filterMode;
    spec.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    spec.filter = {subnet.guestAddress(), subnet.hostAddress(), inputs.proxyPort,
                   environment.settings.gatewayPort};
    spec.turnSocketPath = sockets.filePath(QStringLiteral("turn.sock"));
    spec.mcpSocketPath = sockets.filePath(QStringLiteral("mcp.sock"));
    spec.consoleLogPath = inputs.consoleLogPath;
    spec.uid = ::getuid();
    spec.gid = ::getgid();
    return spec;
}

} // namespace arizuko::turns
