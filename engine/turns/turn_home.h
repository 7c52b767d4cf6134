#pragma once

// The folder home a turn's VM shares read-write: resolved when the turn is
// planned, and checked again right before a VM is created (a turn's or a
// spare's) and before a turn is handed to a spare, so the VM gets the
// directory the plan named or nothing.

#include "core/result.h"
#include "store/data_subdirectory.h"

#include <QString>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

struct TurnHome
{
    QString folder;
    QString id;   // the folder's home id, which no move or re-add reuses
    QString path; // <data>/homes/<id>, handed to libvirt
    store::DirectoryIdentity identity;
};

// Looks the folder's home up and opens it (creating it when missing);
// turns.unsafe-home when a name below the data directory is a link or not
// a directory of the engine's user.
Result<TurnHome> resolveTurnHome(store::Store &store, const QString &folder);

// The same walk again, and the same directory (device and inode) as when
// resolved: turns.unsafe-home otherwise.
Result<void> checkTurnHome(const QString &dataDir, const TurnHome &home);

} // namespace arizuko::turns
