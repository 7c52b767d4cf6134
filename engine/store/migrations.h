#pragma once

// Numbered schema migrations. Schema version N is the state after applying
// migrations/0001_*.sql .. NNNN_*.sql in order; the version is kept in
// PRAGMA user_version, which commits atomically with the migration itself.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QSqlDatabase>
#include <QString>

namespace arizuko::store {

struct Migration
{
    int version = 0;
    QString name; // file name, for messages
    QByteArray sql;
};

// The migrations built into this binary (Qt resources under
// :/arizuko/store/migrations), checked to be numbered 1..N without a gap.
Result<QList<Migration>> embeddedMigrations();

Result<int> schemaVersion(const QSqlDatabase &connection);

// Refuses (without writing) a database whose version is newer than the last
// of `migrations`.
Result<void> refuseNewerSchema(const QSqlDatabase &connection, const QList<Migration> &migrations);

// Brings the database to the last of `migrations`, all pending ones in ONE
// transaction: a failure leaves the file at its old version. A database
// already newer than the last migration is refused and left unchanged.
// Returns the version the database is at afterwards.
Result<int> migrate(const QSqlDatabase &connection, const QList<Migration> &migrations);

} // namespace arizuko::store
