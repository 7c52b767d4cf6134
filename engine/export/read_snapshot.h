#pragma once

// Reads that must see every table at the same moment (an export, a plan):
// run inside one read transaction on the calling thread's connection, which
// is rolled back afterwards since nothing was written.

#include "store/store.h"

#include <QScopeGuard>
#include <QSqlDatabase>

namespace arizuko::manifest {

template<typename Read>
auto inReadTransaction(store::Store &store, Read &&read)
{
    QSqlDatabase db = store.database();
    db.transaction();
    const auto rollback = qScopeGuard([&db] { db.rollback(); });
    return read(db);
}

} // namespace arizuko::manifest
