#include "turns/turn_domain_spec.h"

#include "libvirt/turn_tap.h"

#include <QDir>
#include <QUuid>
#include <unistd.h>

namespace arizuko::turns {

libvirt::TurnDomainSpec turnDomainSpec(const RunnerSettings &settings,
                                       host::Accelerator accelerator, const TurnDomainPlace &place)
{
    const QDir image(settings.guestImageDirectory);
    const QDir sockets(place.socketDirectory);
    libvirt::TurnDomainSpec spec;
    spec.name = place.name;
    spec.owner = place.owner;
    spec.accelerator = accelerator;
    spec.memoryMiB = settings.memoryMiB;
    spec.vcpus = settings.vcpus;
    spec.kernel = image.filePath(QStringLiteral("vmlinux"));
    spec.initramfs = image.filePath(QStringLiteral("initramfs.img"));
    spec.rootImage = image.filePath(QStringLiteral("root.img"));
    // acpi=noirq: virtio uses MSI-X alone; routing each device's legacy
    // interrupt through the i440fx ACPI link costs ~0.4 s per device under TCG.
    // cryptomgr.notests: the kernel's crypto self-tests cost ~0.3 s of every
    // boot under TCG and guard algorithms the guest barely uses (its TLS is
    // the agent's own, in user space); docs/turns.md says what is given up.
    // no_timer_check: under TCG on a loaded host the kernel's check that the
    // IO-APIC timer ticks can miss its window, and the guest panics ("IO-APIC
    // + timer doesn't work!") before PID 1; the check guards real hardware.
    spec.kernelCommandLine =
        QStringLiteral("console=ttyS0 panic=-1 acpi=noirq cryptomgr.notests no_timer_check");
    // The boot watchdog must outlast the wait for the spec.
    if (place.specTimeoutSeconds > 0)
        spec.kernelCommandLine += QStringLiteral(" arizuko.spec_timeout=%1 arizuko.boot_timeout=%2")
                                      .arg(place.specTimeoutSeconds)
                                      .arg(place.specTimeoutSeconds + 120);
    spec.homeDirectory = place.homeDirectory;
    spec.macAddress = libvirt::randomMacAddress();
    spec.tapName = libvirt::turnTapName(place.name);
    spec.filterMode = settings.filterMode;
    spec.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    spec.turnSocketPath = sockets.filePath(QStringLiteral("turn.sock"));
    spec.mcpSocketPath = sockets.filePath(QStringLiteral("mcp.sock"));
    spec.consoleLogPath = place.consoleLogPath;
    spec.uid = ::getuid();
    spec.gid = ::getgid();
    return spec;
}

} // namespace arizuko::turns
