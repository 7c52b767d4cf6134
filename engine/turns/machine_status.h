#pragma once

// Whether this machine can run turns, as the turn runner itself sees it:
// libvirt, the guest image, and the accelerator turns will really use (KVM
// only after a guest kernel booted under it; the decision is cached).

#include "host/host_status.h"
#include "libvirt/connection.h"
#include "turns/runner_settings.h"

namespace arizuko::turns {

host::AcceleratorChoice decideTurnAccelerator(libvirt::Connection &connection,
                                              const RunnerSettings &settings);

// The status `arizukoctl status` prints and the window's first page shows.
host::HostStatus collectMachineStatus(const RunnerSettings &settings);

} // namespace arizuko::turns
