#pragma once

// A folder's own settings live in its row's config object (groups.config),
// one section per subject (model_settings.h, network_settings.h), each value
// inherited down the tree from the nearest folder that sets it.

#include "core/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::folders {

// The folder's whole config object; nullopt when there is no such folder.
Result<std::optional<QJsonObject>> folderConfig(store::Store &store, const QString &folder);
// One section of the folder's own config (folder.not-found when there is
// no such folder).
Result<QJsonObject> ownConfigSection(store::Store &store, const QString &folder,
                                     const QString &section);
// The section of the folder and of each ancestor that has a row, nearest
// first: a value is inherited from the first of them that sets it.
Result<QList<QJsonObject>> inheritedConfigSections(store::Store &store, const QString &folder,
                                                   const QString &section);
// Replaces one section of the folder's config (an empty one is removed) and
// audits `kind` with the section as detail, in one transaction.
Result<void> replaceConfigSection(store::Store &store, const QString &folder,
                                  const QString &section, const QJsonObject &own,
                                  const QString &kind, const QString &actor);

} // namespace arizuko::folders
