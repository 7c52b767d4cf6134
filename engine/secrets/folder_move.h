#pragma once

// A folder move as arizukoctl and the window make it: folders::Folders::move
// with the subtree's secrets re-sealed for their new places. The master key
// is fetched (from the OS keyring, maybe slowly) only when the subtree has
// secrets to re-seal.

#include "core/result.h"

#include <QString>
#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::secrets {

// Returns the moved folders' old paths; refused as Folders::move refuses.
Result<QStringList> moveFolder(store::Store &store, const QString &actor, const QString &from,
                               const QString &to);

} // namespace arizuko::secrets
