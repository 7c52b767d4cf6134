#include "turns/guest_proxy_options.h"

#include "folders/network_settings.h"

namespace arizuko::turns {

EgressOptions guestProxyOptions(const TurnEnvironment &environment, const QString &name,
                                const libvirt::TurnSubnet &subnet, const QStringList &allow,
                                const QStringList &deny, bool allowAll, bool allowLoopback,
                                const UnlistedHostsPolicy &unlisted, const QString &folder)
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
    options.folder = folder;
    options.ask = unlisted.ask;
    // The proxy's own timeout is the engine's with a margin: the engine
    // denies a question first (no-answer) and records that it did; the
    // proxy's is the floor should the engine's answer never come.
    options.askTimeoutSeconds = int(unlisted.timeout.count()) + askTimeoutMargin;
    return options;
}

Result<UnlistedHostsPolicy> unlistedHostsPolicy(store::Store &store, const QString &folder)
{
    if (folder.isEmpty())
        return UnlistedHostsPolicy{};
    const Result<folders::NetworkSettings> settings = folders::networkSettings(store, folder);
    if (!settings)
        return settings.error();
    return UnlistedHostsPolicy{settings->unlistedOrDefault() == folders::UnlistedHosts::Ask,
                               settings->askTimeoutOrDefault()};
}

} // namespace arizuko::turns
