#pragma once

// The domain a turn boots, as the engine creates it. The turn benchmark's
// floor (tests/bench/turn/floor) creates the same domain without the
// engine, so what it measures is what a turn would pay.

#include "host/host_status.h"
#include "libvirt/turn_domain.h"
#include "turns/runner_settings.h"

#include <QString>

namespace arizuko::turns {

struct TurnDomainPlace
{
    QString name;  // az-<turn8>
    QString owner; // the engine's "pid:starttime"
    QString homeDirectory;
    QString socketDirectory; // short: QEMU's socket paths must fit sun_path
    QString consoleLogPath;
    // How long the guest waits for its spec, and its boot watchdog (seconds;
    // 0 keeps the guest's defaults, docs/guest.md): a spare's guest waits
    // as long as the spare may live.
    int specTimeoutSeconds = 0;
};

// Everything but what needs the turn's network (classic mode: the network
// name and the filter's parameters), so that in pretap mode the domain can
// be created before the network exists: the guest takes its address from
// the turn spec, not from the kernel command line.
libvirt::TurnDomainSpec turnDomainSpec(const RunnerSettings &settings,
                                       host::Accelerator accelerator, const TurnDomainPlace &place);

} // namespace arizuko::turns
