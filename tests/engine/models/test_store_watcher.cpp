// The store watcher against a second process: arizukoctl adds a folder, a
// topic, a network rule, a route, a secret and a setting while this process
// watches, and each shows up within a second, in the folder tree too. A
// turn is news only when another process's store changed it: this
// process's engine reports its own.

#include "folders/folders.h"
#include "folders/topics.h"
#include "models/folder_topic_model.h"
#include "store/own_changes.h"
#include "store/store.h"
#include "store/store_watcher.h"
#include "store/store_work.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

using namespace arizuko;

class StoreWatcherTest : public QObject
{
    Q_OBJECT

    int arizukoctl(const QStringList &arguments, const QByteArray &input = {})
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("ARIZUKO_KEY_STORE"), QStringLiteral("file"));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(ARIZUKOCTL),
                      QStringList{QStringLiteral("--data-dir"), m_dataDir} + arguments);
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(30000))
            return -1;
        return process.exitCode();
    }

private slots:
    void seesWhatAnotherProcessWrites()
    {
        QTemporaryDir directory;
        m_dataDir = directory.filePath(QStringLiteral("data"));
        auto store = store::Store::open(m_dataDir);
        QVERIFY(store.ok());
        store::StoreWatcher watcher(**store);
        models::FolderTopicModel tree(**store);
        QSignalSpy reloaded(&tree, &models::FolderTopicModel::reloaded);
        tree.reload();
        QVERIFY(reloaded.wait(10000));
        connect(&watcher, &store::StoreWatcher::foldersChanged, &tree, [&tree] { tree.reload(); });
        connect(&watcher, &store::StoreWatcher::topicsChanged, &tree, [&tree] { tree.reload(); });
        QSignalSpy folders(&watcher, &store::StoreWatcher::foldersChanged);
        QSignalSpy topics(&watcher, &store::StoreWatcher::topicsChanged);
        QSignalSpy rules(&watcher, &store::StoreWatcher::rulesChanged);
        QSignalSpy turns(&watcher, &store::StoreWatcher::turnsChanged);

        QCOMPARE(
            arizukoctl({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")}),
            0);
        QElapsedTimer seen;
        seen.start();
        QTRY_VERIFY_WITH_TIMEOUT(tree.folderIndex(QStringLiteral("corp")).isValid(), 1000);
        qInfo("the folder appeared %lld ms after arizukoctl exited", seen.elapsed());
        QCOMPARE(folders.count(), 1);
        QCOMPARE(topics.count(), 0);

        QCOMPARE(arizukoctl({QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("corp"),
                             QStringLiteral("ideas")}),
                 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            tree.topicIndex(QStringLiteral("corp"), QStringLiteral("ideas")).isValid(), 1000);
        QCOMPARE(arizukoctl({QStringLiteral("network"), QStringLiteral("allow"),
                             QStringLiteral("corp"), QStringLiteral("example.org")}),
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(rules.count(), 1, 1000);
        QCOMPARE(turns.count(), 0);

        // Routes, secrets and settings (migration 0005), each on its own signal.
        QSignalSpy routes(&watcher, &store::StoreWatcher::routesChanged);
        QSignalSpy secrets(&watcher, &store::StoreWatcher::secretsChanged);
        QSignalSpy settings(&watcher, &store::StoreWatcher::settingsChanged);
        QCOMPARE(arizukoctl({QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("1"),
                             QString(), QStringLiteral("corp")}),
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(routes.count(), 1, 1000);
        QCOMPARE(
            arizukoctl({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("TOKEN")},
                       "value\n"),
            0);
        QTRY_COMPARE_WITH_TIMEOUT(secrets.count(), 1, 1000);
        QCOMPARE(arizukoctl({QStringLiteral("settings"), QStringLiteral("set"),
                             QStringLiteral("max-turns"), QStringLiteral("3")}),
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(settings.count(), 1, 1000);
        QCOMPARE(routes.count(), 1);
        QCOMPARE(secrets.count(), 1);
        QCOMPARE(rules.count(), 1);
    }

    // A process killed with its store open never removes its share of the
    // turns' generation; the next store opened on the file does, and keeps
    // the shares of processes still running.
    void theShareOfAGoneProcessIsForgottenAtTheNextOpen()
    {
        QTemporaryDir directory;
        const QString dataDir = directory.filePath(QStringLiteral("data"));
        QProcess gone;
        gone.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("exit 0")});
        QVERIFY(gone.waitForStarted());
        const qint64 gonePid = gone.processId();
        QVERIFY(gone.waitForFinished());
        const QString goneShare = QStringLiteral("turns@%1.7f00dead").arg(gonePid);
        const QString liveShare =
            QStringLiteral("turns@%1.7f00beef").arg(QCoreApplication::applicationPid());
        {
            auto first = store::Store::open(dataDir);
            QVERIFY(first.ok());
            QSqlQuery plant((*first)->database());
            for (const QString &share : {goneShare, liveShare}) {
                plant.prepare(QStringLiteral(
                    "INSERT INTO change_generations (subject, value) VALUES (?, 3)"));
                plant.addBindValue(share);
                QVERIFY(plant.exec());
            }
        }
        auto next = store::Store::open(dataDir);
        QVERIFY(next.ok());
        QSqlQuery shares((*next)->database());
        QVERIFY(shares.exec(
            QStringLiteral("SELECT subject FROM change_generations WHERE subject GLOB 'turns@*'")));
        QStringList subjects;
        while (shares.next())
            subjects << shares.value(0).toString();
        QCOMPARE(subjects, QStringList{liveShare});
    }

    void turnsOfThisStoreAreNotNews()
    {
        QTemporaryDir directory;
        const QString dataDir = directory.filePath(QStringLiteral("data"));
        auto store = store::Store::open(dataDir);
        QVERIFY2(store.ok(), store ? "" : qPrintable(store.error().message));
        QVERIFY(folders::Folders(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        QVERIFY(folders::Topics(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"), QStringLiteral("main"))
                    .ok());
        store::StoreWatcher watcher(**store);
        watcher.setInterval(20);
        QSignalSpy turns(&watcher, &store::StoreWatcher::turnsChanged);
        const auto turn = [](const QString &id) {
            turns::TurnRecord record;
            record.id = id;
            record.name = QStringLiteral("az-") + id.left(8);
            record.folder = QStringLiteral("corp");
            record.topic = QStringLiteral("main");
            record.agent = QStringLiteral("claude");
            record.prompt = QStringLiteral("hello");
            record.state = turns::TurnState::Queued;
            record.queuedAt = store::nowTimestamp();
            return record;
        };

        // This store's turns, from its thread and from another (as the
        // window's engine thread writes them): not reported.
        const Result<void> inserted = turns::TurnRecords(**store).insert(
            turn(QStringLiteral("11111111-0000-0000-0000-000000000000")));
        QVERIFY2(inserted.ok(), inserted ? "" : qPrintable(inserted.error().message));
        bool written = false;
        std::thread engine([work = store::StoreWork(**store), turn, &written] {
            written = turns::TurnRecords(work.store())
                          .insert(turn(QStringLiteral("22222222-0000-0000-0000-000000000000")))
                          .ok();
        });
        engine.join();
        QVERIFY(written);
        QTest::qWait(300);
        QCOMPARE(turns.count(), 0);

        // Another process's store: reported, and its share goes with it.
        {
            auto other = store::Store::open(dataDir);
            QVERIFY(other.ok());
            QVERIFY(turns::TurnRecords(**other)
                        .insert(turn(QStringLiteral("33333333-0000-0000-0000-000000000000")))
                        .ok());
            QTRY_COMPARE_WITH_TIMEOUT(turns.count(), 1, 1000);
        }
        QSqlQuery shares((*store)->database());
        QVERIFY(shares.exec(
            QStringLiteral("SELECT subject FROM change_generations WHERE subject GLOB 'turns@*'")));
        QStringList subjects;
        while (shares.next())
            subjects << shares.value(0).toString();
        QCOMPARE(subjects, QStringList{store::ownTurnsGenerationSubject(**store)});

        // And this store's turns, after another's, are still not news.
        QVERIFY(turns::TurnRecords(**store)
                    .setState(QStringLiteral("11111111-0000-0000-0000-000000000000"),
                              turns::TurnState::Cancelled, store::nowTimestamp())
                    .ok());
        QTest::qWait(300);
        QCOMPARE(turns.count(), 1);
    }

private:
    QString m_dataDir;
};

QTEST_GUILESS_MAIN(StoreWatcherTest)
#include "test_store_watcher.moc"
