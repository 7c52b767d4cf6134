#pragma once

// A folder's say over what its turns' guests may ask of the model, kept in
// the folder's row (groups.config, under "model_gateway") and inherited
// down the tree: each value from the nearest folder that sets it. The
// model gateway applies them (docs/model-gateway.md, "What a request may
// ask").

#include "core/result.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::folders {

struct ModelSettings
{
    // Model ids a guest may ask for (exact, or a prefix ending in '*');
    // unset: the gateway's defaults for the agent's API.
    std::optional<QStringList> models;
    // The provider's own web search, limited to the folder's network
    // allowlist; unset: off.
    std::optional<bool> providerWebSearch;
};

// The folder's own settings (folder.not-found when there is none).
Result<ModelSettings> ownModelSettings(store::Store &store, const QString &folder);
// What applies to the folder's turns: each value from the folder itself or
// its nearest ancestor that sets it.
Result<ModelSettings> modelSettings(store::Store &store, const QString &folder);
// Replaces the folder's own settings (an unset value inherits), audited as
// folder.model-settings by `actor`.
Result<void> setModelSettings(store::Store &store, const QString &folder,
                              const ModelSettings &settings, const QString &actor);

} // namespace arizuko::folders
