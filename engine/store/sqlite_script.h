#pragma once

// Runs a multi-statement SQL script (a migration, with triggers whose bodies
// hold ';') on a QtSql connection. QSqlQuery runs one statement only, so this
// goes through the connection's own sqlite3 handle.

#include "core/result.h"

#include <QByteArray>
#include <QSqlDatabase>

namespace arizuko::store {

Result<void> executeScript(const QSqlDatabase &connection, const QByteArray &sql);

} // namespace arizuko::store
