#include "host/host_status.h"

namespace arizuko::host {

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
