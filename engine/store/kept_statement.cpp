#include "store/kept_statement.h"

#include "store/query.h"

#include <QHash>
#include <QObject>
#include <QSqlDriver>
#include <QSqlQuery>

namespace arizuko::store {
namespace {

// More distinct statements than any caller has: past this the cache is
// emptied, so text built from input by mistake costs memory only up to here.
constexpr qsizetype maxKept = 64;

// The statements of one connection, a child of its driver: it lives in the
// connection's thread and goes with the connection. The driver finalizes
// their SQLite statements when it closes, before its children are deleted.
class KeptStatements final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    static KeptStatements &of(const QSqlDatabase &connection)
    {
        QSqlDriver *driver = connection.driver();
        if (auto *kept = driver->findChild<KeptStatements *>(QString(), Qt::FindDirectChildrenOnly))
            return *kept;
        return *new KeptStatements(driver);
    }

    QHash<QString, QSqlQuery> statements;
};

} // namespace

Result<int> executeKept(const QSqlDatabase &connection, const QString &sql,
                        const QVariantList &values)
{
    // A connection that failed to open keeps nothing (its driver may be Qt's shared null
    // driver, of another thread): the statement fails as store::execute reports it.
    if (!connection.isOpen()) {
        const Result<QSqlQuery> done = execute(connection, sql, values);
        if (!done)
            return done.error();
        return done->numRowsAffected();
    }
    QHash<QString, QSqlQuery> &statements = KeptStatements::of(connection).statements;
    auto kept = statements.find(sql);
    if (kept == statements.end()) {
        QSqlQuery query(connection);
        if (!query.prepare(sql))
            return sqlError(
                query,
                QStringLiteral("cannot prepare a statement on %1").arg(connection.databaseName()));
        if (statements.size() >= maxKept)
            statements.clear();
        kept = statements.insert(sql, std::move(query));
    }
    QSqlQuery &query = *kept;
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), values.at(i));
    if (!query.exec()) {
        Error failed = sqlError(
            query, QStringLiteral("a statement failed on %1").arg(connection.databaseName()));
        // Qt finalizes the statement on some failures (a value it cannot bind): prepared again
        // next time.
        statements.erase(kept);
        return failed;
    }
    const bool rows = query.isSelect();
    const int changed = query.numRowsAffected();
    // Reset, so a kept statement holds no read transaction open between uses.
    query.finish();
    if (rows)
        return makeError(QStringLiteral("store.sql"),
                         QStringLiteral("a statement kept for writes returned rows on %1 (read "
                                        "with store::execute)")
                             .arg(connection.databaseName()));
    return changed;
}

} // namespace arizuko::store

#include "kept_statement.moc"
