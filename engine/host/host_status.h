#pragma once

// One look at everything a turn needs from this machine: libvirt, the
// accelerator and the guest image (gathered by turns/machine_status.h).

#include "host/guest_image.h"
#include "host/libvirt_probe.h"

#include <QString>

namespace arizuko::host {

enum class Accelerator { Kvm, Tcg };

struct AcceleratorChoice
{
    Accelerator accelerator = Accelerator::Tcg;
    QString reason;
};

struct HostStatus
{
    LibvirtStatus libvirt;
    AcceleratorChoice accelerator;
    GuestImageStatus guestImage;

    bool readyForTurns() const { return libvirt.reachable && guestImage.present; }
};

QString acceleratorName(Accelerator accelerator);

} // namespace arizuko::host
