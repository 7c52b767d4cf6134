#include "store/query.h"

#include <QSqlError>

namespace arizuko::store {

Result<QSqlQuery> execute(const QSqlDatabase &connection, const QString &sql,
                          const QVariantList &values)
{
    QSqlQuery query(connection);
    if (!query.prepare(sql))
        return makeError(QStringLiteral("store.sql"),
                         QStringLiteral("cannot prepare a statement on %1: %2")
                             .arg(connection.databaseName(), query.lastError().text()));
    for (const QVariant &value : values)
        query.addBindValue(value);
    if (!query.exec())
        return makeError(QStringLiteral("store.sql"),
                         QStringLiteral("a statement failed on %1: %2")
                             .arg(connection.databaseName(), query.lastError().text()));
    return query;
}

} // namespace arizuko::store
