#pragma once

// One look at everything a turn needs from this machine: libvirt, the
// accelerator and the guest image. The vocabulary lives here, below
// libvirt; libvirt/machine_status.h collects it.

#include "host/guest_image.h"

#include <QString>

namespace arizuko::host {

enum class Accelerator { Kvm, Tcg };

struct AcceleratorChoice
{
    Accelerator accelerator = Accelerator::Tcg;
    QString reason;
};

// Whether the libvirt daemon answers at a URI and what it offers.
struct LibvirtStatus
{
    QString uri;
    bool reachable = false;
    QString version;        // of the daemon, "9.0.0"
    bool kvmDomains = false; // domain capabilities offer type='kvm'
    QString error;          // libvirt's own words when unreachable
    QString hint;           // what to do about it
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
