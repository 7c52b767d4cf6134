#include "host/host_status.h"

#include "host/kvm_probe.h"

namespace arizuko::host {

AcceleratorChoice chooseAccelerator(const LibvirtStatus &libvirt)
{
    if (!libvirt.reachable)
        return {Accelerator::Tcg, QStringLiteral("libvirt is not reachable")};
    if (!libvirt.kvmDomains)
        return {Accelerator::Tcg, QStringLiteral("libvirt offers no kvm domains on this host")};
    const KvmProbeResult probe = probeKvm();
    if (!probe.works)
        return {Accelerator::Tcg, probe.detail};
    return {Accelerator::Kvm, probe.detail};
}

HostStatus collectHostStatus(const QString &libvirtUri)
{
    HostStatus status;
    status.libvirt = probeLibvirt(libvirtUri);
    status.accelerator = chooseAccelerator(status.libvirt);
    status.guestImage = inspectGuestImage();
    return status;
}

QString acceleratorName(Accelerator accelerator)
{
    return accelerator == Accelerator::Kvm ? QStringLiteral("kvm") : QStringLiteral("tcg");
}

QString defaultLibvirtUri()
{
    const QString configured = qEnvironmentVariable("ARIZUKO_LIBVIRT_URI");
    return configured.isEmpty() ? QStringLiteral("qemu:///system") : configured;
}

} // namespace arizuko::host
