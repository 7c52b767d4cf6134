#pragma once

// Statements a connection keeps prepared, for writes run once per row (the
// egress ledger's INSERT and UPDATE per request). store::execute prepares
// its statement every time: SQLite parses and plans it again and Qt makes a
// new result for it, which was a large share of the ledger reader's CPU
// time. Here each connection prepares a statement once and runs it again
// with new values.

#include "core/result.h"

#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

namespace arizuko::store {

// Runs sql, a statement that returns no rows (INSERT, UPDATE, DELETE), with
// positional values, on the statement this connection keeps for that text
// (prepared on its first use, finalized when the connection closes). sql is
// fixed text, the values go in the bindings: each distinct text is kept.
// Returns the number of rows it changed. Errors are worded as
// store::execute words them (never with the values); a statement that
// returns rows is refused with "store.sql" (use store::execute).
Result<int> executeKept(const QSqlDatabase &connection, const QString &sql,
                        const QVariantList &values = {});

} // namespace arizuko::store
