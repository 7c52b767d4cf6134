#pragma once

// One look at everything a turn needs from this machine: libvirt, the
// accelerator and the guest image. The CLI's `status` and the window's
// first-run check both show it.

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

// KVM is used only when libvirt offers kvm domains and a test guest really
// runs; otherwise TCG, with the reason.
AcceleratorChoice chooseAccelerator(const LibvirtStatus &libvirt);

HostStatus collectHostStatus(const QString &libvirtUri);

QString acceleratorName(Accelerator accelerator);

// The URI used when none is configured: $ARIZUKO_LIBVIRT_URI or qemu:///system.
QString defaultLibvirtUri();

} // namespace arizuko::host
