#pragma once

// The SQLite store in the data directory: opened once per process with WAL,
// foreign keys and a busy timeout, checked with quick_check and migrated to
// this build's schema. Hands each thread its own connection.

#include "core/result.h"

#include <QMutex>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace arizuko::store {

class BusyHandler;
class StoreWork;

class Store
{
public:
    // The database file's name inside the data directory.
    static QString databaseFileName();

    // Creates the data directory (0700) if needed, then opens and migrates
    // `<dataDir>/arizuko.db`. A damaged file or one from a newer version is
    // refused with an error naming it, and is never written to.
    static Result<std::unique_ptr<Store>> open(const QString &dataDir);

    // Waits until no StoreWork holds the store (a worker still using it),
    // then closes every thread's connection.
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // The connection for the calling thread (a QSqlDatabase must only be used
    // by the thread that opened it); opened on first use in each thread.
    QSqlDatabase database() const;

    QString dataDir() const { return m_dataDir; }
    QString databasePath() const;

private:
    friend class StoreWork;

    explicit Store(QString dataDir);
    Result<QSqlDatabase> openConnection() const;
    QString connectionNameForThisThread() const;

    const QString m_dataDir;
    const quint64 m_serial;
    mutable QMutex m_connectionsMutex;
    mutable QStringList m_connectionNames;
    // Declared last: destroyed only after ~Store has closed the connections.
    mutable std::vector<std::unique_ptr<BusyHandler>> m_busyHandlers;
    // How many StoreWork hold the store; the destructor waits for zero.
    mutable std::mutex m_workMutex;
    mutable std::condition_variable m_workDone;
    mutable int m_work = 0;
};

} // namespace arizuko::store
