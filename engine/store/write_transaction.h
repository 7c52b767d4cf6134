#pragma once

// A write transaction that takes the write lock up front (BEGIN IMMEDIATE).
// A deferred BEGIN that later upgrades to a write can fail at once with
// "database is locked" under WAL when another process wrote meanwhile; an
// immediate one waits for the busy timeout instead. Rolls back unless
// committed.

#include "core/result.h"

#include <QSqlDatabase>

namespace arizuko::store {

class WriteTransaction
{
public:
    static Result<WriteTransaction> begin(const QSqlDatabase &connection);

    WriteTransaction(WriteTransaction &&other) noexcept;
    WriteTransaction &operator=(WriteTransaction &&) = delete;
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;
    ~WriteTransaction();

    Result<void> commit();

private:
    explicit WriteTransaction(QSqlDatabase connection);

    QSqlDatabase m_connection;
    bool m_open = true;
};

} // namespace arizuko::store
