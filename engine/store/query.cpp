#include "store/query.h"

#include <QSqlError>

namespace arizuko::store {

Error sqlError(const QSqlQuery &query, const QString &what)
{
    return makeError(QStringLiteral("store.sql"),
                     QStringLiteral("%1: %2").arg(what, query.lastError().text()));
}

Result<QSqlQuery> execute(const QSqlDatabase &connection, const QString &sql,
                          const QVariantList &values)
{
    QSqlQuery query(connection);
    if (!query.prepare(sql))
        return sqlError(query, QStringLiteral("cannot prepare a statement on %1")
                                   .arg(connection.databaseName()));
    for (const QVariant &value : values)
        query.addBindValue(value);
    if (!query.exec())
        return sqlError(query,
                        QStringLiteral("a statement failed on %1").arg(connection.databaseName()));
    return query;
}

} // namespace arizuko::store
