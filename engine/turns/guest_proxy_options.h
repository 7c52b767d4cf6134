#pragma once

// The egress proxy of one guest, a turn's or a spare's (spare_pool.h): it
// listens on the host's address of the guest's /30, serves that guest only,
// and allows what the folder's lists allow, with the runner's settings.

#include "libvirt/turn_network.h"
#include "turns/egress_proxy.h"
#include "turns/turn_environment.h"

namespace arizuko::turns {

// Seconds the proxy waits for an answer beyond the engine's own timeout.
inline constexpr int askTimeoutMargin = 5;

EgressOptions guestProxyOptions(const TurnEnvironment &environment, const QString &name,
                                const libvirt::TurnSubnet &subnet, const QStringList &allow,
                                const QStringList &deny, bool allowAll, bool allowLoopback,
                                const UnlistedHostsPolicy &unlisted, const QString &folder);

// The folder's setting for hosts on no allow entry, as its proxy runs with it.
Result<UnlistedHostsPolicy> unlistedHostsPolicy(store::Store &store, const QString &folder);

} // namespace arizuko::turns
