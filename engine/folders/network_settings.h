#pragma once

// A folder's say over hosts on none of its allow entries, kept in the
// folder's row (groups.config, under "network") and inherited down the tree
// like the model settings: deny them (the default), or ask the user while
// the request waits (docs/egress.md, "Asking while the request waits").

#include "core/result.h"

#include <QString>
#include <chrono>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::folders {

enum class UnlistedHosts
{
    Deny,
    Ask
};

QString unlistedHostsName(UnlistedHosts value);
std::optional<UnlistedHosts> unlistedHostsFromName(const QString &name);

inline constexpr std::chrono::seconds defaultAskTimeout{60};
// Bounds of the question timeout a folder may set.
inline constexpr std::chrono::seconds minimumAskTimeout{5};
inline constexpr std::chrono::seconds maximumAskTimeout{3600};

struct NetworkSettings
{
    // Unset: inherited; at the top, Deny.
    std::optional<UnlistedHosts> unlisted;
    // How long a question waits for an answer before the request is denied
    // with no-answer; unset: inherited, at the top defaultAskTimeout.
    std::optional<std::chrono::seconds> askTimeout;

    UnlistedHosts unlistedOrDefault() const { return unlisted.value_or(UnlistedHosts::Deny); }
    std::chrono::seconds askTimeoutOrDefault() const
    {
        return askTimeout.value_or(defaultAskTimeout);
    }
};

// The folder's own settings (folder.not-found when there is none).
Result<NetworkSettings> ownNetworkSettings(store::Store &store, const QString &folder);
// What applies to the folder's turns: each value from the folder itself or
// its nearest ancestor that sets it.
Result<NetworkSettings> networkSettings(store::Store &store, const QString &folder);
// Replaces the folder's own settings (an unset value inherits), audited as
// folder.network-settings by `actor`. A timeout outside the bounds is
// folder.invalid-setting.
Result<void> setNetworkSettings(store::Store &store, const QString &folder,
                                const NetworkSettings &settings, const QString &actor);

} // namespace arizuko::folders
