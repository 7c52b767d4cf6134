#pragma once

// Whether this machine can run turns, as the turn runner itself sees it:
// libvirt (with advice a person can act on when it does not answer), the
// guest image, and the accelerator turns will really use (KVM only after a
// guest kernel booted under it; the decision is cached). `arizukoctl
// status`, the window's first page and the turn runner all ask here.

#include "host/host_status.h"
#include "libvirt/accelerator_choice.h"
#include "libvirt/connection.h"

#include <QString>

namespace arizuko::libvirt {

// What the machine check needs to know; the turn runner's settings extend it.
struct MachineSettings
{
    QString libvirtUri;
    QString guestImageDirectory;
    AcceleratorSetting accelerator = AcceleratorSetting::Auto;
};

host::LibvirtStatus probeLibvirt(const QString &uri);

// The accelerator for turns booting the image in settings.guestImageDirectory,
// with the decision cached in the user's cache directory.
host::AcceleratorChoice decideTurnAccelerator(Connection &connection,
                                              const MachineSettings &settings);

// The status `arizukoctl status` prints and the window's first page shows.
host::HostStatus collectMachineStatus(const MachineSettings &settings);

} // namespace arizuko::libvirt
