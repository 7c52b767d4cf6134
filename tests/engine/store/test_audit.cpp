// The audit log: entries in order, filters, and atomicity with the change
// they describe.

#include "audit/audit_log.h"
#include "store/query.h"
#include "store/store.h"
#include "store/write_transaction.h"

#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

class AuditTest : public QObject
{
    Q_OBJECT

private slots:
    void recordsAndFilters()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        audit::AuditLog log(**store);
        const Result<qint64> first = log.record(
            QStringLiteral("user:cli"), QStringLiteral("secret.set"), QStringLiteral("TOKEN"),
            {{QStringLiteral("folder"), QStringLiteral("corp")}});
        QVERIFY(first);
        QVERIFY(log.record(QStringLiteral("user:cli"), QStringLiteral("secret.rm"),
                           QStringLiteral("TOKEN")));
        QVERIFY(log.record(QStringLiteral("policy"), QStringLiteral("secretive"),
                           QStringLiteral("other")));
        QVERIFY(log.record(QStringLiteral("policy"), QStringLiteral("grant.decision"),
                           QStringLiteral("corp")));

        const Result<QList<audit::Entry>> secrets =
            log.query({QStringLiteral("secret"), {}, 0, 100, {}});
        QVERIFY(secrets);
        QCOMPARE(secrets->size(), 2);
        QCOMPARE(secrets->at(0).id, *first);
        QCOMPARE(secrets->at(0).kind, QStringLiteral("secret.set"));
        QCOMPARE(secrets->at(0).detail.value(QStringLiteral("folder")).toString(),
                 QStringLiteral("corp"));
        QVERIFY(QDateTime::fromString(secrets->at(0).at, Qt::ISODateWithMs).isValid());
        QVERIFY(secrets->at(0).at.endsWith(QLatin1Char('Z')));

        QCOMPARE(log.query({QStringLiteral("secret.rm"), {}, 0, 100, {}})->size(), 1);
        QCOMPARE(log.query({{}, QStringLiteral("corp"), 0, 100, {}})->size(), 1);
        QCOMPARE(log.query({{}, {}, *first, 100, {}})->size(), 3);

        const Result<QList<audit::Entry>> newestTwo = log.query({{}, {}, 0, 2, {}});
        QVERIFY(newestTwo);
        QCOMPARE(newestTwo->size(), 2);
        QCOMPARE(newestTwo->at(0).kind, QStringLiteral("secretive"));
        QCOMPARE(newestTwo->at(1).kind, QStringLiteral("grant.decision"));

        // Since a time: text order is time order for the fixed-width `at`.
        const auto since = log.query({{}, {}, 0, 100, secrets->at(1).at});
        QVERIFY(since && !since->isEmpty());
        for (const audit::Entry &entry : *since)
            QVERIFY(entry.at >= secrets->at(1).at);
        QCOMPARE(since->last().kind, QStringLiteral("grant.decision"));
        QVERIFY(log.query({{}, {}, 0, 100, QStringLiteral("2999-01-01T00:00:00.000Z")})->isEmpty());
    }

    void commitsAndRollsBackWithTheCallersTransaction()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        audit::AuditLog log(**store);
        {
            auto transaction = store::WriteTransaction::begin((*store)->database());
            QVERIFY(transaction);
            QVERIFY(log.record(QStringLiteral("a"), QStringLiteral("rolled.back"),
                               QStringLiteral("s")));
        }
        {
            auto transaction = store::WriteTransaction::begin((*store)->database());
            QVERIFY(transaction);
            QVERIFY(
                log.record(QStringLiteral("a"), QStringLiteral("committed"), QStringLiteral("s")));
            QVERIFY(transaction->commit());
        }
        const Result<QList<audit::Entry>> all = log.query({});
        QVERIFY(all);
        QCOMPARE(all->size(), 1);
        QCOMPARE(all->first().kind, QStringLiteral("committed"));
    }

    // writeAudited(): a change and its audit entry commit together, and a
    // change that fails after writing leaves neither its row nor its entry.
    void writesAChangeAndItsEntryTogetherOrNotAtAll()
    {
        QTemporaryDir dir;
        auto store = store::Store::open(dir.path());
        QVERIFY(store);
        audit::AuditLog log(**store);
        const auto addFolder = [&](const QString &folder, bool failAfterWriting) {
            return log.writeAudited([&]() -> Result<void> {
                if (const auto inserted = store::execute(
                        (*store)->database(),
                        QStringLiteral("INSERT INTO groups (folder, name, created_at) "
                                       "VALUES (?, '', '2026-01-01T00:00:00.000Z')"),
                        {folder});
                    !inserted)
                    return inserted.error();
                if (const auto recorded =
                        log.record(QStringLiteral("test"), QStringLiteral("folder.add"), folder);
                    !recorded)
                    return recorded.error();
                if (failAfterWriting)
                    return makeError(QStringLiteral("test.refused"),
                                     QStringLiteral("refused after writing"));
                return {};
            });
        };
        QVERIFY(addFolder(QStringLiteral("kept"), false));
        const Result<void> refused = addFolder(QStringLiteral("refused"), true);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("test.refused"));

        Result<QSqlQuery> folders =
            store::execute((*store)->database(), QStringLiteral("SELECT folder FROM groups"));
        QVERIFY(folders);
        QStringList names;
        while (folders->next())
            names << folders->value(0).toString();
        QCOMPARE(names, QStringList{QStringLiteral("kept")});
        const Result<QList<audit::Entry>> entries =
            log.query({QStringLiteral("folder.add"), {}, 0, 100, {}});
        QVERIFY(entries);
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().subject, QStringLiteral("kept"));
    }
};

QTEST_GUILESS_MAIN(AuditTest)
#include "test_audit.moc"
