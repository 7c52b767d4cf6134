#pragma once

// What QtSql does not offer, done on the connection's own sqlite3 handle:
// running a multi-statement script (a migration, with triggers whose bodies
// hold ';'; QSqlQuery runs one statement only), and a busy handler that
// keeps waiting writers in the race for the lock.

#include "core/result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <chrono>
#include <memory>

namespace arizuko::store {

Result<void> executeScript(const QSqlDatabase &connection, const QByteArray &sql);

// SQLite's own busy timeout sleeps in steps growing to 100 ms, so against a
// process that commits back to back it keeps missing the moments the lock
// is free and gives up with "database is locked". This handler retries
// about every millisecond (with jitter) until its timeout has passed. It
// must outlive the connection it is installed on.
class BusyHandler
{
public:
    static Result<std::unique_ptr<BusyHandler>> install(const QSqlDatabase &connection,
                                                        int timeoutMs);

    std::chrono::milliseconds timeout;
    std::chrono::steady_clock::time_point waitStarted;

private:
    explicit BusyHandler(int timeoutMs);
};

} // namespace arizuko::store
