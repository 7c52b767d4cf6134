// The store opens with the promised settings, keeps its data, migrates old
// files, and refuses damaged or newer ones without touching them.

#include "store/data_dir.h"
#include "store/kept_statement.h"
#include "store/migrations.h"
#include "store/sqlite_native.h"
#include "store/store.h"
#include "store/store_work.h"
#include "store/write_transaction.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <memory>
#include <sqlite3.h>

using namespace arizuko;
using namespace arizuko::store;

namespace {

QVariant scalar(const QSqlDatabase &connection, const QString &sql)
{
    QSqlQuery query(connection);
    if (!query.exec(sql) || !query.next())
        qFatal("query failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return query.value(0);
}

QByteArray fileDigest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

int latestVersion()
{
    const Result<QList<Migration>> migrations = embeddedMigrations();
    return migrations ? migrations->last().version : -1;
}

// A bare connection that is not a Store, to prepare files the way an older
// build (or a vandal) would have left them.
class RawDatabase
{
public:
    explicit RawDatabase(const QString &path)
    {
        QSqlDatabase connection = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        connection.setDatabaseName(path);
        if (!connection.open())
            qFatal("cannot open %s", qPrintable(path));
    }
    ~RawDatabase() { QSqlDatabase::removeDatabase(m_name); }
    QSqlDatabase connection() const { return QSqlDatabase::database(m_name, false); }

private:
    const QString m_name = QStringLiteral("raw-%1").arg(++s_counter);
    static inline int s_counter = 0;
};

QSet<QString> tableNames(const QSqlDatabase &connection)
{
    QSqlQuery query(connection);
    query.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"));
    QSet<QString> names;
    while (query.next())
        names.insert(query.value(0).toString());
    return names;
}

} // namespace

class StoreTest : public QObject
{
    Q_OBJECT

private slots:
    void opensWithWalForeignKeysAndFullSync()
    {
        QTemporaryDir parent;
        const QString dataDir = parent.filePath(QStringLiteral("nested/data"));
        const auto store = Store::open(dataDir);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
        QCOMPARE(QFile::permissions(dataDir) & 0x0077, QFileDevice::Permissions());
        const QSqlDatabase db = (*store)->database();
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA journal_mode")).toString(),
                 QStringLiteral("wal"));
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA foreign_keys")).toInt(), 1);
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA synchronous")).toInt(), 2);
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")).toInt(), latestVersion());
        QVERIFY(QFile::exists(dataDir + QStringLiteral("/arizuko.db")));
    }

    void foreignKeysAreEnforced()
    {
        QTemporaryDir dir;
        const auto store = Store::open(dir.path());
        QVERIFY(store);
        QSqlQuery query((*store)->database());
        QVERIFY(!query.exec(QStringLiteral("INSERT INTO sessions (group_folder, topic, session_id, "
                                           "created_at) VALUES ('nope', 't', 's', 'now')")));
    }

    void persistsAcrossReopen()
    {
        QTemporaryDir dir;
        {
            const auto store = Store::open(dir.path());
            QVERIFY(store);
            QSqlQuery query((*store)->database());
            QVERIFY(query.exec(QStringLiteral("INSERT INTO groups (folder, created_at) VALUES "
                                              "('kept', '2026-01-01T00:00:00.000Z')")));
        }
        const auto reopened = Store::open(dir.path());
        QVERIFY(reopened);
        QCOMPARE(scalar((*reopened)->database(), QStringLiteral("SELECT count(*) FROM groups WHERE "
                                                                "folder = 'kept'"))
                     .toInt(),
                 1);
    }

    void eachThreadGetsItsOwnConnection()
    {
        QTemporaryDir dir;
        const auto store = Store::open(dir.path());
        QVERIFY(store);
        const Store &shared = **store;
        constexpr int threads = 4;
        constexpr int rowsPerThread = 50;
        QList<QThread *> workers;
        QStringList names;
        QMutex namesMutex;
        for (int worker = 0; worker < threads; ++worker) {
            workers << QThread::create([&shared, &names, &namesMutex, worker] {
                const QSqlDatabase db = shared.database();
                {
                    const QMutexLocker locker(&namesMutex);
                    names << db.connectionName();
                }
                for (int row = 0; row < rowsPerThread; ++row) {
                    QSqlQuery query(db);
                    query.prepare(QStringLiteral("INSERT INTO audit_log (at, actor, kind, subject) "
                                                 "VALUES ('t', ?, 'test', ?)"));
                    query.addBindValue(QString::number(worker));
                    query.addBindValue(QString::number(row));
                    if (!query.exec())
                        qFatal("insert failed: %s", qPrintable(query.lastError().text()));
                }
            });
        }
        for (QThread *worker : workers)
            worker->start();
        for (QThread *worker : workers) {
            worker->wait();
            delete worker;
        }
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), threads);
        QVERIFY(!names.contains(shared.database().connectionName()));
        QCOMPARE(
            scalar(shared.database(), QStringLiteral("SELECT count(*) FROM audit_log")).toInt(),
            threads * rowsPerThread);
    }

    // Work on another thread holds the store: dropping the store waits for
    // it (the work still reads through its own connection meanwhile), and
    // a copy of the hold counts as a hold of its own.
    void droppingTheStoreWaitsForItsWork()
    {
        QTemporaryDir dir;
        auto opened = Store::open(dir.path());
        QVERIFY(opened);
        std::unique_ptr<Store> store = std::move(*opened);
        QSemaphore started;
        QSemaphore mayEnd;
        QAtomicInt rows = -1;
        // Taken here, where the store is alive; the worker owns it.
        auto *hold = new StoreWork(*store);
        QThread *worker = QThread::create([hold, &started, &mayEnd, &rows] {
            std::unique_ptr<StoreWork> taken(hold);
            const StoreWork copy = *taken;
            taken.reset();
            started.release();
            mayEnd.acquire();
            rows.storeRelease(
                scalar(copy.store().database(), QStringLiteral("SELECT count(*) FROM audit_log"))
                    .toInt());
        });
        worker->start();
        started.acquire();
        QThread *dropping = QThread::create([&store] { store.reset(); });
        dropping->start();
        const bool wentAtOnce = dropping->wait(500);
        mayEnd.release();
        QVERIFY(dropping->wait(10000));
        QVERIFY(worker->wait(10000));
        delete dropping;
        delete worker;
        QVERIFY2(!wentAtOnce, "the store went while its work held it");
        QCOMPARE(rows.loadAcquire(), 0);
    }

    void aWriterWaitsForAnotherConnectionsTransaction()
    {
        QTemporaryDir dir;
        const auto first = Store::open(dir.path());
        const auto second = Store::open(dir.path());
        QVERIFY(first && second);
        QSemaphore locked;
        QThread *holder = QThread::create([&first, &locked] {
            auto transaction = WriteTransaction::begin((*first)->database());
            if (!transaction)
                qFatal("holder could not begin");
            locked.release();
            QThread::msleep(400);
            if (!transaction->commit())
                qFatal("holder could not commit");
        });
        holder->start();
        locked.acquire();
        QElapsedTimer waited;
        waited.start();
        auto transaction = WriteTransaction::begin((*second)->database());
        const qint64 elapsed = waited.elapsed();
        QVERIFY2(transaction, qPrintable(transaction ? QString() : transaction.error().message));
        QVERIFY2(elapsed >= 300,
                 qPrintable(QStringLiteral("got the lock after %1 ms").arg(elapsed)));
        QVERIFY(transaction->commit());
        holder->wait();
        delete holder;
    }

    void writeTransactionRollsBackUnlessCommitted()
    {
        QTemporaryDir dir;
        const auto store = Store::open(dir.path());
        QVERIFY(store);
        const QSqlDatabase db = (*store)->database();
        const QString insert =
            QStringLiteral("INSERT INTO groups (folder, created_at) VALUES ('%1', 'now')");
        {
            auto transaction = WriteTransaction::begin(db);
            QVERIFY(transaction);
            QVERIFY(QSqlQuery(db).exec(insert.arg(QStringLiteral("dropped"))));
        }
        {
            auto transaction = WriteTransaction::begin(db);
            QVERIFY(transaction);
            QVERIFY(QSqlQuery(db).exec(insert.arg(QStringLiteral("kept"))));
            QVERIFY(transaction->commit());
        }
        QCOMPARE(scalar(db, QStringLiteral("SELECT group_concat(folder) FROM groups")).toString(),
                 QStringLiteral("kept"));
    }

    // A write run again reuses the statement its connection keeps (one SQLite statement
    // for its text, however often it runs), with the new values each time; a failure
    // leaves the next run working, a read is refused, and the store closes cleanly.
    void keptStatementsAreReusedWithNewValues()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        QTemporaryDir dir;
        {
            const auto store = Store::open(dir.path());
            QVERIFY(store);
            const QSqlDatabase db = (*store)->database();
            const QString insert = QStringLiteral(
                "INSERT INTO groups (folder, name, created_at) VALUES (?, ?, 'now')");
            for (const QString &folder : {QStringLiteral("one"), QStringLiteral("two")}) {
                const Result<int> changed = executeKept(db, insert, {folder, folder + u'!'});
                QVERIFY2(changed, qPrintable(changed ? QString() : changed.error().message));
                QCOMPARE(*changed, 1);
            }
            auto *handle = *static_cast<sqlite3 *const *>(db.driver()->handle().constData());
            // Qt hands SQLite the text with its ? as :0, :1, ...
            int kept = 0;
            for (sqlite3_stmt *statement = sqlite3_next_stmt(handle, nullptr); statement;
                 statement = sqlite3_next_stmt(handle, statement))
                kept += QString::fromUtf8(sqlite3_sql(statement)).startsWith(u"INSERT INTO groups");
            QCOMPARE(kept, 1);

            const Result<int> duplicate = executeKept(db, insert, {QStringLiteral("one"), {}});
            QVERIFY(!duplicate);
            QCOMPARE(duplicate.error().code, QStringLiteral("store.sql"));
            QVERIFY(executeKept(db, insert, {QStringLiteral("three"), QStringLiteral("3")}));
            QCOMPARE(scalar(db, QStringLiteral("SELECT group_concat(folder || '=' || name, ' ') "
                                               "FROM (SELECT * FROM groups ORDER BY folder)"))
                         .toString(),
                     QStringLiteral("one=one! three=3 two=two!"));

            const Result<int> read = executeKept(db, QStringLiteral("SELECT folder FROM groups"));
            QVERIFY(!read);
            QCOMPARE(read.error().code, QStringLiteral("store.sql"));
            const Result<int> updated =
                executeKept(db, QStringLiteral("UPDATE groups SET name = ? WHERE folder <> ?"),
                            {QStringLiteral("x"), QStringLiteral("two")});
            QVERIFY(updated);
            QCOMPARE(*updated, 2);
        }
        // Closed with its statements finalized: the file opens again, with the rows.
        const auto reopened = Store::open(dir.path());
        QVERIFY(reopened);
        QCOMPARE(
            scalar((*reopened)->database(), QStringLiteral("SELECT count(*) FROM groups")).toInt(),
            3);
    }

    void refusesNewerSchemaAndLeavesItUnchanged()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(Store::databaseFileName());
        {
            RawDatabase raw(path);
            QVERIFY(QSqlQuery(raw.connection()).exec(QStringLiteral("PRAGMA user_version = 999")));
        }
        const QByteArray before = fileDigest(path);
        const auto store = Store::open(dir.path());
        QVERIFY(!store);
        QCOMPARE(store.error().code, QStringLiteral("store.too-new"));
        QVERIFY2(store.error().message.contains(path), qPrintable(store.error().message));
        QVERIFY(store.error().message.contains(QStringLiteral("999")));
        QCOMPARE(fileDigest(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

    void refusesAFileThatIsNotADatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(Store::databaseFileName());
        QFile garbage(path);
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(8192, 'x'));
        garbage.close();
        const QByteArray before = fileDigest(path);
        const auto store = Store::open(dir.path());
        QVERIFY(!store);
        QCOMPARE(store.error().code, QStringLiteral("store.corrupt"));
        QVERIFY2(store.error().message.contains(path), qPrintable(store.error().message));
        QCOMPARE(fileDigest(path), before);
    }

    void refusesADatabaseWithADamagedPage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(Store::databaseFileName());
        {
            const auto store = Store::open(dir.path());
            QVERIFY(store);
            QSqlQuery query((*store)->database());
            for (int row = 0; row < 500; ++row)
                QVERIFY(
                    query.exec(QStringLiteral("INSERT INTO audit_log (at, actor, kind, subject, "
                                              "detail) VALUES ('t', 'a', 'k', 's', '%1')")
                                   .arg(QString(200, QLatin1Char('d')))));
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const qint64 size = file.size();
        QVERIFY(size > 16 * 4096);
        // Scribble over the interior of the file, away from the header.
        file.seek(size / 2);
        file.write(QByteArray(8192, '\xA5'));
        file.close();
        const QByteArray before = fileDigest(path);
        const auto store = Store::open(dir.path());
        QVERIFY(!store);
        QCOMPARE(store.error().code, QStringLiteral("store.corrupt"));
        QVERIFY2(store.error().message.contains(path), qPrintable(store.error().message));
        QCOMPARE(fileDigest(path), before);
    }

    void migratesAnEmptySchemaZeroFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(Store::databaseFileName());
        {
            QFile empty(path);
            QVERIFY(empty.open(QIODevice::WriteOnly));
        }
        const auto store = Store::open(dir.path());
        QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
        const QSqlDatabase db = (*store)->database();
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")).toInt(), latestVersion());
        const QSet<QString> expected = {
            QStringLiteral("groups"),        QStringLiteral("sessions"),
            QStringLiteral("messages"),      QStringLiteral("routes"),
            QStringLiteral("acl"),           QStringLiteral("acl_membership"),
            QStringLiteral("network_rules"), QStringLiteral("secrets"),
            QStringLiteral("audit_log"),     QStringLiteral("policy_generation")};
        QVERIFY(tableNames(db).contains(expected));
        QCOMPARE(
            scalar(db, QStringLiteral("SELECT count(*) FROM acl WHERE principal = 'role:member'"))
                .toInt(),
            12);
    }

    void opensASchemaOneFixtureKeepingItsRows()
    {
        // A frozen dump of a schema-1 file with rows in it; when a migration
        // 0002 lands, this is the "previous version" file it must upgrade.
        QFile fixture(QStringLiteral(STORE_FIXTURES "/schema1_with_rows.sql"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString path = dir.filePath(Store::databaseFileName());
        {
            RawDatabase raw(path);
            const Result<void> loaded = executeScript(raw.connection(), fixture.readAll());
            QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        }
        const auto store = Store::open(dir.path());
        QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
        const QSqlDatabase db = (*store)->database();
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")).toInt(), latestVersion());
        QCOMPARE(
            scalar(db, QStringLiteral("SELECT group_concat(folder, ',') FROM (SELECT folder FROM "
                                      "groups ORDER BY folder)"))
                .toString(),
            QStringLiteral("corp,corp/eng"));
        QCOMPARE(scalar(db, QStringLiteral("SELECT session_id FROM sessions WHERE topic = 'main'"))
                     .toString(),
                 QStringLiteral("11111111-2222-3333-4444-555555555555"));
        QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM audit_log")).toInt(), 2);
        QSqlQuery violations(db);
        QVERIFY(violations.exec(QStringLiteral("PRAGMA foreign_key_check")));
        QVERIFY(!violations.next());
    }

    void runnerAppliesPendingMigrationsInOneTransaction()
    {
        QTemporaryDir dir;
        RawDatabase raw(dir.filePath(QStringLiteral("runner.db")));
        const QSqlDatabase db = raw.connection();
        const QList<Migration> two = {
            {1, QStringLiteral("0001_a.sql"), "CREATE TABLE t (a INTEGER);"},
            {2, QStringLiteral("0002_b.sql"),
             "ALTER TABLE t ADD COLUMN b TEXT;\n"
             "CREATE TABLE log (x);\n"
             "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (NEW.a); END;"},
        };
        const Result<int> migrated = migrate(db, two);
        QVERIFY2(migrated, qPrintable(migrated ? QString() : migrated.error().message));
        QCOMPARE(*migrated, 2);
        QVERIFY(QSqlQuery(db).exec(QStringLiteral("INSERT INTO t (a, b) VALUES (7, 'x')")));
        QCOMPARE(scalar(db, QStringLiteral("SELECT x FROM log")).toInt(), 7);

        QList<Migration> broken = two;
        broken.append({3, QStringLiteral("0003_bad.sql"),
                       "CREATE TABLE u (x);\nINSERT INTO missing VALUES (1);"});
        broken.append({4, QStringLiteral("0004_never.sql"), "CREATE TABLE v (x);"});
        const Result<int> failed = migrate(db, broken);
        QVERIFY(!failed);
        QCOMPARE(failed.error().code, QStringLiteral("store.migration-failed"));
        QVERIFY(failed.error().message.contains(QStringLiteral("0003_bad.sql")));
        QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")).toInt(), 2);
        QVERIFY(!tableNames(db).contains(QStringLiteral("u")));

        const Result<int> again = migrate(db, two);
        QVERIFY(again);
        QCOMPARE(*again, 2);
        const Result<int> older = migrate(db, two.mid(0, 1));
        QVERIFY(!older);
        QCOMPARE(older.error().code, QStringLiteral("store.too-new"));
    }

    void embeddedMigrationsAreNumberedFromOne()
    {
        const Result<QList<Migration>> migrations = embeddedMigrations();
        QVERIFY2(migrations, qPrintable(migrations ? QString() : migrations.error().message));
        QVERIFY(!migrations->isEmpty());
        for (qsizetype index = 0; index < migrations->size(); ++index) {
            QCOMPARE(migrations->at(index).version, index + 1);
            QVERIFY(!migrations->at(index).sql.isEmpty());
        }
    }

    void dataDirResolutionOrder()
    {
        QTemporaryDir dir;
        qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("xdg")).toUtf8());
        qunsetenv("ARIZUKO_DATA_DIR");
        QCOMPARE(resolveDataDir(), dir.filePath(QStringLiteral("xdg/arizuko-desktop")));
        qputenv("ARIZUKO_DATA_DIR", dir.filePath(QStringLiteral("env")).toUtf8());
        QCOMPARE(resolveDataDir(), dir.filePath(QStringLiteral("env")));
        QCOMPARE(resolveDataDir(dir.filePath(QStringLiteral("flag"))),
                 dir.filePath(QStringLiteral("flag")));
        QVERIFY(QDir::isAbsolutePath(resolveDataDir(QStringLiteral("relative/dir"))));
        qunsetenv("ARIZUKO_DATA_DIR");
    }
};

QTEST_GUILESS_MAIN(StoreTest)
#include "test_store.moc"
