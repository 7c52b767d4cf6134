#include "store/write_transaction.h"

#include <QSqlError>
#include <QSqlQuery>

namespace arizuko::store {

WriteTransaction::WriteTransaction(QSqlDatabase connection)
    : m_connection(std::move(connection))
{}

WriteTransaction::WriteTransaction(WriteTransaction &&other) noexcept
    : m_connection(std::move(other.m_connection))
    , m_open(std::exchange(other.m_open, false))
{}

Result<WriteTransaction> WriteTransaction::begin(const QSqlDatabase &connection)
{
    QSqlQuery query(connection);
    if (!query.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return makeError(QStringLiteral("store.busy"),
                         QStringLiteral("could not start a write transaction on %1: %2")
                             .arg(connection.databaseName(), query.lastError().text()));
    return WriteTransaction(connection);
}

WriteTransaction::~WriteTransaction()
{
    if (m_open)
        QSqlQuery(m_connection).exec(QStringLiteral("ROLLBACK"));
}

Result<void> WriteTransaction::commit()
{
    QSqlQuery query(m_connection);
    if (!query.exec(QStringLiteral("COMMIT")))
        return makeError(QStringLiteral("store.commit"),
                         QStringLiteral("could not commit to %1: %2")
                             .arg(m_connection.databaseName(), query.lastError().text()));
    m_open = false;
    return {};
}

} // namespace arizuko::store
