#pragma once

// KVM or TCG for the turn VMs, decided once per host boot and guest kernel
// and cached: a /dev/kvm that runs a test vCPU is not proof (on some nested
// hosts real guests hang), so KVM is chosen only after the guest kernel
// really boots under it within a short timeout.

#include "core/result.h"
#include "host/host_status.h"
#include "libvirt/connection.h"

#include <QString>
#include <chrono>

namespace arizuko::libvirt {

enum class AcceleratorSetting
{
    Auto,
    Kvm,
    Tcg
};

// "auto", "kvm" or "tcg"; anything else is an error naming the value.
Result<AcceleratorSetting> parseAcceleratorSetting(const QString &text);

struct AcceleratorProbeInputs
{
    QString kernel;
    QString initramfs;
    QString cacheFile;        // where the decision is kept between runs
    QString scratchDirectory; // for the probe VM's console log
    uint uid = 0;
    uint gid = 0;
    std::chrono::milliseconds bootTimeout = std::chrono::seconds(8);
};

// With Kvm/Tcg the setting decides (forced). With Auto: the cached decision
// when it matches this boot and kernel, else libvirt's kvm capability, the
// host's vCPU probe, then a real guest boot under KVM.
host::AcceleratorChoice chooseTurnAccelerator(Connection &connection, AcceleratorSetting setting,
                                              const AcceleratorProbeInputs &inputs);

} // namespace arizuko::libvirt
