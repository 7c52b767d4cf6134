#pragma once

// The VM a turn's guest runs in, as the runner's settings and the guest's
// network make it: one definition for a cold turn's domain and a spare's
// (spare_guest.h), so the two cannot drift apart.

#include "libvirt/turn_domain.h"
#include "libvirt/turn_network.h"
#include "turns/turn_environment.h"

namespace arizuko::turns {

struct GuestDomainInputs
{
    QString name; // az-<8 hex digits>, also the network's
    const libvirt::TurnNetwork *network = nullptr;
    quint16 proxyPort = 0;
    QString homeDirectory;
    QString socketDirectory; // short: sun_path is 108 bytes
    QString consoleLogPath;
    // How long the guest waits for its spec, and its boot watchdog (seconds;
    // 0 keeps the guest's defaults, see docs/guest.md).
    int specTimeoutSeconds = 0;
};

libvirt::TurnDomainSpec guestDomainSpec(const TurnEnvironment &environment,
                                        const GuestDomainInputs &inputs);

} // namespace arizuko::turns
