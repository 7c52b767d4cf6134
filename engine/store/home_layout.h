#pragma once

// Moves the folder homes of a data directory made before schema 6
// (<data>/groups/<folder>, where a child's home lay inside its parent's)
// to <data>/homes/<home_id>. Run at every open; a data directory without
// <data>/groups has nothing to move.

#include "core/result.h"

#include <QStringList>

namespace arizuko::store {

class Store;

// <data>/homes/<homeId>, relative to the data directory.
QString homeRelativePath(const QString &homeId);
// <data>/history/<homeId>.git, the home's history (engine/history): beside
// the homes, in no guest's share.
QString historyRelativePath(const QString &homeId);

// Deepest folders first, so a parent's home moves without its children's.
// Never follows a link: a home that is a link, or lies below one, stays
// where it is and its folder starts with a new empty home. A moved home's
// file hard-linked from outside it (another home) gets a copy of its own
// (home_hard_links.h). Every folder's outcome is written to the audit log
// (kind folder.home-layout); returns one sentence per home that was not
// moved and per hard link that could not be copied.
Result<QStringList> migrateHomeLayout(Store &store);

} // namespace arizuko::store
