#include "store/store.h"

#include "core/soft_assert.h"
#include "store/home_layout.h"
#include "store/migrations.h"
#include "store/own_changes.h"
#include "store/sqlite_native.h"

#include <QCoreApplication>
#include <QDebug>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <atomic>
#include <cerrno>
#include <csignal>

namespace arizuko::store {
namespace {

// How long a write waits for another connection's transaction to end; a
// write that still cannot get the lock after this is reported, not retried
// forever.
constexpr int busyTimeoutMs = 10000;

// SQLite's primary result codes for a file that is not, or no longer, a
// database (SQLITE_CORRUPT, SQLITE_NOTADB).
const QStringList damagedFileCodes = {QStringLiteral("11"), QStringLiteral("26")};

quint64 nextSerial()
{
    static std::atomic<quint64> serial{0};
    return ++serial;
}

quint64 threadSerial()
{
    // Never reused, unlike thread ids or QThread addresses, so a new thread
    // can never pick up a dead thread's connection.
    static std::atomic<quint64> counter{0};
    thread_local const quint64 serial = ++counter;
    return serial;
}

Error damaged(const QString &path, const QString &detail)
{
    return makeError(
        QStringLiteral("store.corrupt"),
        QStringLiteral("the database %1 is damaged (%2). It was left untouched: restore "
                       "a backup, or move it aside to start with an empty store.")
            .arg(path, detail));
}

// The error for a statement that failed while opening: a damaged file is
// named as such, anything else reported as it came.
Error openFailure(const QSqlDatabase &connection, const QString &what, const QSqlError &error)
{
    if (damagedFileCodes.contains(error.nativeErrorCode()))
        return damaged(connection.databaseName(), error.databaseText());
    return makeError(
        QStringLiteral("store.open"),
        QStringLiteral("%1 on %2 failed: %3").arg(what, connection.databaseName(), error.text()));
}

Result<void> exec(const QSqlDatabase &connection, const QString &statement)
{
    QSqlQuery query(connection);
    if (!query.exec(statement))
        return openFailure(connection, statement, query.lastError());
    return {};
}

Result<void> quickCheck(const QSqlDatabase &connection)
{
    QSqlQuery query(connection);
    if (!query.exec(QStringLiteral("PRAGMA quick_check")))
        return openFailure(connection, QStringLiteral("PRAGMA quick_check"), query.lastError());
    QStringList problems;
    while (query.next())
        problems << query.value(0).toString();
    if (problems != QStringList{QStringLiteral("ok")})
        return damaged(
            connection.databaseName(),
            QStringLiteral("quick_check: %1").arg(problems.mid(0, 3).join(QStringLiteral("; "))));
    return {};
}

Result<void> enableWal(const QSqlDatabase &connection)
{
    QSqlQuery query(connection);
    if (!query.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !query.next())
        return openFailure(connection, QStringLiteral("PRAGMA journal_mode = WAL"),
                           query.lastError());
    if (query.value(0).toString() != QLatin1String("wal"))
        return makeError(QStringLiteral("store.open"),
                         QStringLiteral("%1 refused WAL mode (journal mode stays '%2'); is it on a "
                                        "network file system?")
                             .arg(connection.databaseName(), query.value(0).toString()));
    return {};
}

Result<void> prepareDataDir(const QString &dataDir)
{
    const QFileInfo info(dataDir);
    if (info.exists() && !info.isDir())
        return makeError(QStringLiteral("store.data-dir"),
                         QStringLiteral("the data directory %1 is not a directory").arg(dataDir));
    if (!info.exists()) {
        if (!QDir().mkpath(dataDir))
            return makeError(QStringLiteral("store.data-dir"),
                             QStringLiteral("cannot create the data directory %1").arg(dataDir));
        // Homes, the database and possibly the key file live here: owner only.
        QFile::setPermissions(dataDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return {};
}

} // namespace

QString Store::databaseFileName()
{
    return QStringLiteral("arizuko.db");
}

Store::Store(QString dataDir)
    : m_dataDir(std::move(dataDir))
    , m_serial(nextSerial())
{}

Store::~Store()
{
    {
        std::unique_lock lock(m_workMutex);
        m_workDone.wait(lock, [this] { return m_work == 0; });
    }
    // This store's share of the turns' generation means nothing once it is
    // closed. Read first: a store that changed no turn writes nothing here.
    {
        QSqlQuery own(database());
        own.prepare(QStringLiteral("SELECT 1 FROM change_generations WHERE subject = ?"));
        own.addBindValue(ownTurnsGenerationSubject(*this));
        if (own.exec() && own.next()) {
            own.finish();
            own.prepare(QStringLiteral("DELETE FROM change_generations WHERE subject = ?"));
            own.addBindValue(ownTurnsGenerationSubject(*this));
            if (!own.exec())
                qWarning().noquote() << "store: cannot remove this process's turns generation:"
                                     << own.lastError().text();
        }
    }
    const QMutexLocker locker(&m_connectionsMutex);
    for (const QString &name : std::as_const(m_connectionNames))
        QSqlDatabase::removeDatabase(name);
}

QString ownTurnsGenerationSubject(const Store &store)
{
    return QStringLiteral("turns@%1.%2")
        .arg(QCoreApplication::applicationPid())
        .arg(quintptr(&store), 0, 16);
}

namespace {

// Creates the TEMP trigger behind ownTurnsGenerationSubject() on a
// connection of a migrated store.
Result<void> countOwnTurnChanges(const Store &store, const QSqlDatabase &connection)
{
    // A TEMP trigger belongs to this connection alone and fires only for
    // its changes; the subject is ours, no quoting needed.
    return exec(
        connection,
        QStringLiteral(
            "CREATE TEMP TRIGGER IF NOT EXISTS own_turns_generation AFTER UPDATE OF value ON "
            "main.change_generations WHEN NEW.subject = 'turns' BEGIN "
            "INSERT INTO change_generations (subject, value) VALUES ('%1', NEW.value - OLD.value) "
            "ON CONFLICT (subject) DO UPDATE SET value = value + excluded.value; END")
            .arg(ownTurnsGenerationSubject(store)));
}

// Drops the shares of processes that are gone without closing their store
// (killed, crashed): a share is removed only when its store closes, and
// nothing else would ever remove it.
Result<void> forgetSharesOfGoneProcesses(const QSqlDatabase &connection)
{
    QSqlQuery shares(connection);
    if (!shares.exec(
            QStringLiteral("SELECT subject FROM change_generations WHERE subject GLOB 'turns@*'")))
        return makeError(QStringLiteral("store.query"), shares.lastError().text());
    QStringList gone;
    while (shares.next()) {
        const QString subject = shares.value(0).toString();
        bool numeric = false;
        const qint64 pid = subject.section(QLatin1Char('@'), 1)
                               .section(QLatin1Char('.'), 0, 0)
                               .toLongLong(&numeric);
        // EPERM: alive, another user's.
        if (numeric && pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            gone << subject;
    }
    shares.finish();
    for (const QString &subject : std::as_const(gone)) {
        QSqlQuery forget(connection);
        forget.prepare(QStringLiteral("DELETE FROM change_generations WHERE subject = ?"));
        forget.addBindValue(subject);
        if (!forget.exec())
            return makeError(QStringLiteral("store.query"), forget.lastError().text());
    }
    return {};
}

} // namespace

QString Store::databasePath() const
{
    return m_dataDir + QLatin1Char('/') + databaseFileName();
}

Result<std::unique_ptr<Store>> Store::open(const QString &dataDir)
{
    if (dataDir.isEmpty())
        return makeError(QStringLiteral("store.data-dir"),
                         QStringLiteral("no data directory was given"));
    const QString absoluteDir = QDir::cleanPath(QDir(dataDir).absolutePath());
    if (const Result<void> prepared = prepareDataDir(absoluteDir); !prepared)
        return prepared.error();

    const QFileInfo file(absoluteDir + QLatin1Char('/') + databaseFileName());
    if (file.exists() && !file.isFile())
        return makeError(QStringLiteral("store.open"),
                         QStringLiteral("%1 exists but is not a file").arg(file.filePath()));

    std::unique_ptr<Store> store(new Store(absoluteDir));
    const Result<QSqlDatabase> connection = store->openConnection();
    if (!connection)
        return connection.error();
    // Read-only checks first: nothing may write to a file we have not
    // recognised as a healthy database of ours.
    if (const Result<void> checked = quickCheck(*connection); !checked)
        return checked.error();
    const Result<QList<Migration>> migrations = embeddedMigrations();
    if (!migrations)
        return migrations.error();
    if (const Result<void> known = refuseNewerSchema(*connection, *migrations); !known)
        return known.error();
    if (const Result<void> wal = enableWal(*connection); !wal)
        return wal.error();
    if (const Result<int> migrated = migrate(*connection, *migrations); !migrated)
        return migrated.error();
    AZ_ASSERT_OK(countOwnTurnChanges(*store, *connection),
                 "counting this store's own turn changes");
    AZ_ASSERT_OK(forgetSharesOfGoneProcesses(*connection),
                 "forgetting the turn shares of processes that are gone");
    const Result<QStringList> moved = migrateHomeLayout(*store);
    if (!moved)
        return moved.error();
    // Also in the audit log; said here so a user sees it where the engine runs.
    for (const QString &note : *moved)
        qWarning().noquote() << note;
    return store;
}

QString Store::connectionNameForThisThread() const
{
    return QStringLiteral("arizuko-store-%1-thread-%2").arg(m_serial).arg(threadSerial());
}

Result<QSqlDatabase> Store::openConnection() const
{
    const QString name = connectionNameForThisThread();
    QSqlDatabase connection = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    {
        const QMutexLocker locker(&m_connectionsMutex);
        m_connectionNames << name;
    }
    connection.setDatabaseName(databasePath());
    if (!connection.open())
        return makeError(QStringLiteral("store.open"),
                         QStringLiteral("cannot open the database %1: %2")
                             .arg(databasePath(), connection.lastError().text()));
    Result<std::unique_ptr<BusyHandler>> busyHandler =
        BusyHandler::install(connection, busyTimeoutMs);
    if (!busyHandler)
        return busyHandler.error();
    {
        const QMutexLocker locker(&m_connectionsMutex);
        m_busyHandlers.push_back(std::move(busyHandler).value());
    }
    // Per-connection settings: foreign keys are off by default in SQLite,
    // and FULL sync makes a commit durable before it is reported done.
    for (const QString &statement : {QStringLiteral("PRAGMA foreign_keys = ON"),
                                     QStringLiteral("PRAGMA synchronous = FULL")}) {
        if (const Result<void> applied = exec(connection, statement); !applied)
            return applied.error();
    }
    return connection;
}

QSqlDatabase Store::database() const
{
    const QString name = connectionNameForThisThread();
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name, false);
    const Result<QSqlDatabase> opened = openConnection();
    // A connection that failed to open still reports its error on every
    // query, which is where callers look.
    if (!opened)
        return QSqlDatabase::database(name, false);
    // Without it this store's turns would only look like another process's.
    AZ_ASSERT_OK(countOwnTurnChanges(*this, *opened), "counting this store's own turn changes");
    return *opened;
}

} // namespace arizuko::store
