#include "turns/guest_proxy_options.h"

namespace arizuko::turns {

EgressOptions guestProxyOptions(const TurnEnvironment &environment, const QString &name,
                                const libvirt::TurnSubnet &subnet, const QStringList &allow,
                                const QStringList &deny, bool allowAll, bool allowLoopback)
{
    EgressOptions options;
    options.program = environment.settings.egressProgram;
    options.turnName = name;
    options.owner = environment.owner;
    options.listenAddress = subnet.hostAddress() + QStringLiteral(":0");
    options.client = subnet.guestAddress();
    options.allow = allow;
    options.deny = deny;
    options.allowAll = allowAll;
    options.allowLoopback = allowLoopback || environment.settings.proxyAllowsLoopback;
    options.healthTimeout = environment.settings.proxyHealthTimeout;
    return options;
}

} // namespace arizuko::turns
