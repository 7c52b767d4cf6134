#include "store/migrations.h"

#include "store/sqlite_native.h"
#include "store/write_transaction.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>

namespace arizuko::store {

Result<QList<Migration>> embeddedMigrations()
{
    static const QRegularExpression numbered(QStringLiteral("^(\\d{4})_[a-z0-9_]+\\.sql$"));
    const QString directory = QStringLiteral(":/arizuko/store/migrations");
    QList<Migration> migrations;
    for (const QString &fileName : QDir(directory).entryList(QDir::Files, QDir::Name)) {
        const QRegularExpressionMatch match = numbered.match(fileName);
        if (!match.hasMatch())
            return makeError(
                QStringLiteral("store.migrations"),
                QStringLiteral("migration file '%1' is not named NNNN_name.sql").arg(fileName));
        QFile file(directory + QLatin1Char('/') + fileName);
        if (!file.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("store.migrations"),
                             QStringLiteral("cannot read migration '%1'").arg(fileName));
        migrations.append({match.captured(1).toInt(), fileName, file.readAll()});
    }
    for (qsizetype index = 0; index < migrations.size(); ++index) {
        if (migrations[index].version != index + 1)
            return makeError(
                QStringLiteral("store.migrations"),
                QStringLiteral("migration '%1' should be number %2: migrations are numbered "
                               "from 1 without a gap")
                    .arg(migrations[index].name)
                    .arg(index + 1));
    }
    if (migrations.isEmpty())
        return makeError(QStringLiteral("store.migrations"),
                         QStringLiteral("no migrations are built into this binary"));
    return migrations;
}

Result<int> schemaVersion(const QSqlDatabase &connection)
{
    QSqlQuery query(connection);
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
        return makeError(QStringLiteral("store.sql"),
                         QStringLiteral("cannot read the schema version of %1: %2")
                             .arg(connection.databaseName(), query.lastError().text()));
    return query.value(0).toInt();
}

namespace {

Error tooNew(const QSqlDatabase &connection, int found, int known)
{
    return makeError(
        QStringLiteral("store.too-new"),
        QStringLiteral("%1 has schema version %2, but this build of Arizuko Desktop knows "
                       "versions up to %3. It was left unchanged; open it with a newer "
                       "Arizuko Desktop.")
            .arg(connection.databaseName())
            .arg(found)
            .arg(known));
}

int lastVersion(const QList<Migration> &migrations)
{
    return migrations.isEmpty() ? 0 : migrations.last().version;
}

} // namespace

Result<void> refuseNewerSchema(const QSqlDatabase &connection, const QList<Migration> &migrations)
{
    const Result<int> version = schemaVersion(connection);
    if (!version)
        return version.error();
    if (*version > lastVersion(migrations))
        return tooNew(connection, *version, lastVersion(migrations));
    return {};
}

Result<int> migrate(const QSqlDatabase &connection, const QList<Migration> &migrations)
{
    const int latest = lastVersion(migrations);
    if (const Result<void> known = refuseNewerSchema(connection, migrations); !known)
        return known.error();
    const Result<int> before = schemaVersion(connection);
    if (!before)
        return before.error();
    if (*before == latest)
        return latest;

    Result<WriteTransaction> transaction = WriteTransaction::begin(connection);
    if (!transaction)
        return transaction.error();
    // Another process may have migrated between the first look and the lock.
    const Result<int> current = schemaVersion(connection);
    if (!current)
        return current.error();
    if (*current > latest)
        return tooNew(connection, *current, latest);
    for (const Migration &migration : migrations) {
        if (migration.version <= *current)
            continue;
        if (const Result<void> applied = executeScript(connection, migration.sql); !applied)
            return makeError(
                QStringLiteral("store.migration-failed"),
                QStringLiteral("migration %1 failed on %2: %3; the database was left at "
                               "schema version %4")
                    .arg(migration.name, connection.databaseName(), applied.error().message)
                    .arg(*current));
        const QByteArray setVersion =
            "PRAGMA user_version = " + QByteArray::number(migration.version);
        if (const Result<void> stamped = executeScript(connection, setVersion); !stamped)
            return stamped.error();
    }
    if (const Result<void> committed = transaction->commit(); !committed)
        return committed.error();
    return latest;
}

} // namespace arizuko::store
