#include "store/sqlite_native.h"

#include <QRandomGenerator>
#include <QSqlDriver>
#include <QVariant>
#include <sqlite3.h>
#include <thread>

namespace arizuko::store {
namespace {

sqlite3 *sqliteHandle(const QSqlDatabase &connection)
{
    const QVariant handle = connection.driver() ? connection.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

Error notSqlite()
{
    return makeError(QStringLiteral("store.driver"),
                     QStringLiteral("the connection is not an open SQLite connection"));
}

struct SqliteFree
{
    void operator()(char *message) const { sqlite3_free(message); }
};

int retryWhileBusy(void *context, int attempt)
{
    auto *handler = static_cast<BusyHandler *>(context);
    const auto now = std::chrono::steady_clock::now();
    if (attempt == 0)
        handler->waitStarted = now;
    if (now - handler->waitStarted >= handler->timeout)
        return 0;
    // Jitter keeps two waiters from polling in lockstep.
    std::this_thread::sleep_for(
        std::chrono::microseconds(500 + QRandomGenerator::global()->bounded(1000)));
    return 1;
}

} // namespace

Result<void> executeScript(const QSqlDatabase &connection, const QByteArray &sql)
{
    sqlite3 *handle = sqliteHandle(connection);
    if (!handle)
        return notSqlite();
    char *rawMessage = nullptr;
    const int status = sqlite3_exec(handle, sql.constData(), nullptr, nullptr, &rawMessage);
    const std::unique_ptr<char, SqliteFree> message(rawMessage);
    if (status != SQLITE_OK)
        return makeError(QStringLiteral("store.sql"),
                         QString::fromUtf8(message ? message.get() : sqlite3_errstr(status)));
    return {};
}

BusyHandler::BusyHandler(int timeoutMs)
    : timeout(timeoutMs)
{}

Result<std::unique_ptr<BusyHandler>> BusyHandler::install(const QSqlDatabase &connection,
                                                          int timeoutMs)
{
    sqlite3 *handle = sqliteHandle(connection);
    if (!handle)
        return notSqlite();
    std::unique_ptr<BusyHandler> handler(new BusyHandler(timeoutMs));
    // SQLite calls it on the connection's own thread, one lock wait at a time.
    if (sqlite3_busy_handler(handle, retryWhileBusy, handler.get()) != SQLITE_OK)
        return makeError(QStringLiteral("store.open"),
                         QStringLiteral("cannot install the busy handler"));
    return handler;
}

} // namespace arizuko::store
