#include "store/sqlite_script.h"

#include <QSqlDriver>
#include <QVariant>
#include <memory>
#include <sqlite3.h>

namespace arizuko::store {
namespace {

sqlite3 *sqliteHandle(const QSqlDatabase &connection)
{
    const QVariant handle = connection.driver() ? connection.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

struct SqliteFree
{
    void operator()(char *message) const { sqlite3_free(message); }
};

} // namespace

Result<void> executeScript(const QSqlDatabase &connection, const QByteArray &sql)
{
    sqlite3 *handle = sqliteHandle(connection);
    if (!handle)
        return makeError(QStringLiteral("store.driver"),
                         QStringLiteral("the connection is not an open SQLite connection"));
    char *rawMessage = nullptr;
    const int status = sqlite3_exec(handle, sql.constData(), nullptr, nullptr, &rawMessage);
    const std::unique_ptr<char, SqliteFree> message(rawMessage);
    if (status != SQLITE_OK)
        return makeError(QStringLiteral("store.sql"),
                         QString::fromUtf8(message ? message.get() : sqlite3_errstr(status)));
    return {};
}

} // namespace arizuko::store
