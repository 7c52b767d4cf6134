#pragma once

// One prepared statement with positional values, as a Result: the common
// shape of every store read and write.

#include "core/result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

namespace arizuko::store {

// A failed statement as an Error with the code "store.sql": what was being
// done ("cannot add the grant") and SQLite's reason, never the bound values
// (they may be secret). The one way the engine words a SQL failure.
Error sqlError(const QSqlQuery &query, const QString &what);

// On failure the error message names the database file and SQLite's reason;
// it never repeats the bound values (they may be secret).
Result<QSqlQuery> execute(const QSqlDatabase &connection, const QString &sql,
                          const QVariantList &values = {});

} // namespace arizuko::store
