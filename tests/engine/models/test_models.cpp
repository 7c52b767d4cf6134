// The window's item models, each under QAbstractItemModelTester (which
// fails the test on any broken model invariant) while the store changes.

#include "folders/folders.h"
#include "folders/topics.h"
#include "models/folder_topic_model.h"
#include "models/network_decision_model.h"
#include "models/turn_list_model.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using models::FolderTopicModel;

namespace {

turns::TurnRecord turnIn(const QString &folder, const QString &topic, const QString &id)
{
    turns::TurnRecord record;
    record.id = id;
    record.name = QStringLiteral("az-") + id.left(8);
    record.folder = folder;
    record.topic = topic;
    record.agent = QStringLiteral("command");
    record.prompt = QStringLiteral("true\nsecond line");
    record.queuedAt = store::nowTimestamp();
    return record;
}

QStringList labels(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row)
        out << model.index(row, 0, parent).data().toString();
    return out;
}

// The tree read on a worker and shown.
bool reloadTree(FolderTopicModel &model)
{
    QSignalSpy reloaded(&model, &FolderTopicModel::reloaded);
    model.reload();
    return reloaded.wait(10000);
}

} // namespace

class ModelsTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        QVERIFY(m_directory->isValid());
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
    }
    void cleanup() { m_store.reset(); }

    void folderTreeFollowsTheStoreRowByRow()
    {
        FolderTopicModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        folders::Topics topics(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")).ok());
        QVERIFY(folders.add(QStringLiteral("corp/eng")).ok());
        QVERIFY(folders.add(QStringLiteral("home")).ok());
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("main")).ok());
        QVERIFY(reloadTree(model));

        QCOMPARE(labels(model), (QStringList{QStringLiteral("corp"), QStringLiteral("home")}));
        const QModelIndex corp = model.folderIndex(QStringLiteral("corp"));
        // Subfolders first, then topics.
        QCOMPARE(labels(model, corp), (QStringList{QStringLiteral("eng"), QStringLiteral("main")}));
        QCOMPARE(model.folderIndex(QStringLiteral("corp/eng")).parent(), corp);

        // An unrelated change leaves existing rows alone: no reset, no removal.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QVERIFY(topics.add(QStringLiteral("corp/eng"), QStringLiteral("oncall")).ok());
        QVERIFY(reloadTree(model));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.topicIndex(QStringLiteral("corp/eng"), QStringLiteral("oncall"))
                     .data(FolderTopicModel::TopicRole)
                     .toString(),
                 QStringLiteral("oncall"));

        QVERIFY(
            topics.rename(QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("zeta"))
                .ok());
        QVERIFY(folders.remove(QStringLiteral("home"), true).ok());
        QVERIFY(reloadTree(model));
        QCOMPARE(labels(model), QStringList{QStringLiteral("corp")});
        QCOMPARE(labels(model, model.folderIndex(QStringLiteral("corp"))),
                 (QStringList{QStringLiteral("eng"), QStringLiteral("zeta")}));
    }

    // Reads asked for while one is under way make one more read after it,
    // and every caller hears back; a tree that cannot be read stays as it
    // was, and says why.
    void folderTreeReadsAgainAndKeepsItsRowsWhenTheStoreFails()
    {
        FolderTopicModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")).ok());
        QSignalSpy reloaded(&model, &FolderTopicModel::reloaded);
        int answered = 0;
        model.reload([&answered] { ++answered; });
        QVERIFY(folders.add(QStringLiteral("home")).ok());
        model.reload([&answered] { ++answered; });
        model.reload([&answered] { ++answered; });
        QTRY_COMPARE(answered, 3);
        QCOMPARE(reloaded.count(), 2); // the last two asked during the first read: one more read
        QCOMPARE(labels(model), (QStringList{QStringLiteral("corp"), QStringLiteral("home")}));

        QSqlQuery gone(m_store->database());
        QVERIFY2(gone.exec(QStringLiteral("ALTER TABLE sessions RENAME TO sessions_gone")),
                 qPrintable(gone.lastError().text()));
        QVERIFY(folders.add(QStringLiteral("zoo")).ok());
        QSignalSpy failed(&model, &FolderTopicModel::failed);
        bool called = false;
        model.reload([&called] { called = true; });
        QVERIFY(failed.wait(10000));
        QVERIFY(called);
        QVERIFY(!failed.first().first().value<Error>().message.isEmpty());
        QCOMPARE(labels(model), (QStringList{QStringLiteral("corp"), QStringLiteral("home")}));
    }

    void topicsShowTheirRunningAndQueuedTurns()
    {
        FolderTopicModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        folders::Topics topics(*m_store, QStringLiteral("user:test"));
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("a")).ok());
        QVERIFY(topics.add(QStringLiteral("corp"), QStringLiteral("b")).ok());
        turns::TurnRecords records(*m_store);
        QVERIFY(records.insert(turnIn(QStringLiteral("corp"), QStringLiteral("a"),
                                      QStringLiteral("11111111-0000-0000-0000-000000000000")))
                    .ok());
        QVERIFY(reloadTree(model));
        const auto activity = [&](const char *topic) {
            return model.topicIndex(QStringLiteral("corp"), QLatin1String(topic))
                .data(FolderTopicModel::ActivityRole)
                .toString();
        };
        QCOMPARE(activity("a"), QStringLiteral("queued"));
        QCOMPARE(activity("b"), QString());

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(records.setState(QStringLiteral("11111111-0000-0000-0000-000000000000"),
                                 turns::TurnState::Running, store::nowTimestamp())
                    .ok());
        QVERIFY(reloadTree(model));
        QCOMPARE(activity("a"), QStringLiteral("running"));
        QCOMPARE(model.folderIndex(QStringLiteral("corp")).data(FolderTopicModel::ActivityRole),
                 QVariant(QStringLiteral("running")));
        QVERIFY(changed.count() >= 2); // the topic and its folder
    }

    void topicActivityCountsTheQueueAndNamesTheLatestTurn()
    {
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        turns::TurnRecords records(*m_store);
        auto empty = records.topicActivity(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(empty.ok());
        QCOMPARE(empty->queued, 0);
        QVERIFY(!empty->running);
        QVERIFY(empty->latest.id.isEmpty());

        const QStringList ids{QStringLiteral("aaaaaaaa-0000-0000-0000-000000000000"),
                              QStringLiteral("bbbbbbbb-0000-0000-0000-000000000000"),
                              QStringLiteral("cccccccc-0000-0000-0000-000000000000")};
        for (const QString &id : ids)
            QVERIFY(
                records.insert(turnIn(QStringLiteral("corp"), QStringLiteral("main"), id)).ok());
        QVERIFY(records
                    .insert(turnIn(QStringLiteral("corp"), QStringLiteral("other"),
                                   QStringLiteral("dddddddd-0000-0000-0000-000000000000")))
                    .ok());
        QVERIFY(records.setState(ids[0], turns::TurnState::Running, store::nowTimestamp()).ok());
        auto activity = records.topicActivity(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(activity.ok());
        QCOMPARE(activity->queued, 2);
        QVERIFY(activity->running);
        QCOMPARE(activity->latest.id, ids[2]);

        QVERIFY(records.setState(ids[0], turns::TurnState::Done, store::nowTimestamp()).ok());
        QVERIFY(records.setState(ids[2], turns::TurnState::Failed, store::nowTimestamp()).ok());
        activity = records.topicActivity(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(activity.ok());
        QCOMPARE(activity->queued, 1);
        QVERIFY(!activity->running);
        QCOMPARE(activity->latest.state, turns::TurnState::Failed);
    }

    void turnListAppendsAndUpdatesInPlace()
    {
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        turns::TurnRecords records(*m_store);
        const QString first = QStringLiteral("aaaaaaaa-0000-0000-0000-000000000000");
        const QString second = QStringLiteral("bbbbbbbb-0000-0000-0000-000000000000");
        QVERIFY(records.insert(turnIn(QStringLiteral("corp"), QStringLiteral("main"), first)).ok());

        models::TurnListModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTopic(QStringLiteral("corp"), QStringLiteral("main"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, models::TurnListModel::PromptColumn).data().toString(),
                 QStringLiteral("true"));

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(
            records.insert(turnIn(QStringLiteral("corp"), QStringLiteral("main"), second)).ok());
        QVERIFY(records.setState(first, turns::TurnState::Done, store::nowTimestamp()).ok());
        QVERIFY(model.reload().ok());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, models::TurnListModel::StateColumn).data().toString(),
                 QStringLiteral("done"));
        QVERIFY(model.index(0, models::TurnListModel::DurationColumn).data().toString().endsWith(
            QLatin1String(" s")));
        QCOMPARE(model.index(1, 0).data(models::TurnListModel::IdRole).toString(), second);

        model.setTopic(QStringLiteral("corp"), QStringLiteral("other"));
        QCOMPARE(model.rowCount(), 0);
    }

    void networkDecisionsJoinTheirCloseLine()
    {
        models::NetworkDecisionModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto line = [](const char *event, const char *host, const char *decision) {
            return QJsonObject{{QStringLiteral("event"), QLatin1String(event)},
                              {QStringLiteral("time"), QStringLiteral("2025-01-01T10:00:00.000Z")},
                              {QStringLiteral("host"), QLatin1String(host)},
                              {QStringLiteral("port"), 80},
                              {QStringLiteral("decision"), QLatin1String(decision)},
                              {QStringLiteral("reason"), qstrcmp(decision, "allow") == 0
                                                             ? QStringLiteral("allowed")
                                                             : QStringLiteral("host-not-allowed")},
                              {QStringLiteral("bytes_up"), 10},
                              {QStringLiteral("bytes_down"), 20}};
        };
        model.addDecisions(
            {line("decision", "localhost", "allow"), line("close", "localhost", "allow")});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, models::NetworkDecisionModel::BytesColumn).data().toString(),
                 QStringLiteral("10 up, 20 down"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.addDecisions({line("decision", "denied.example", "deny")});
        model.addDecisions({line("close", "denied.example", "deny"), line("status", "x", "")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(changed.count(), 1);
        QVERIFY(model.index(1, 0).data(models::NetworkDecisionModel::AllowableRole).toBool());
        QCOMPARE(model.index(1, models::NetworkDecisionModel::DecisionColumn).data().toString(),
                 QStringLiteral("denied"));
        // Allowed, then no connection: a failure, which no rule would change.
        QJsonObject failed = line("decision", "allowed.example", "deny");
        failed.insert(QStringLiteral("reason"), QStringLiteral("connect-failed"));
        QJsonObject denied = line("decision", "denied.example", "deny");
        denied.insert(QStringLiteral("reason"), QStringLiteral("host-denied"));
        model.addDecisions({failed, denied});
        QCOMPARE(model.index(2, models::NetworkDecisionModel::DecisionColumn).data().toString(),
                 QStringLiteral("failed"));
        QVERIFY(!model.index(2, 0).data(models::NetworkDecisionModel::AllowableRole).toBool());
        QCOMPARE(model.index(3, models::NetworkDecisionModel::DecisionColumn).data().toString(),
                 QStringLiteral("denied"));
        // An explicit deny rule is not lifted by adding an allow rule.
        QVERIFY(!model.index(3, 0).data(models::NetworkDecisionModel::AllowableRole).toBool());
        // Asked about and not allowed: refused, and an allow rule would
        // let the host through next time.
        for (const QString &reason : {QStringLiteral("user-denied"), QStringLiteral("no-answer"),
                                     QStringLiteral("ask-limit")}) {
            QJsonObject asked = line("decision", "asked.example", "deny");
            asked.insert(QStringLiteral("reason"), reason);
            model.addDecisions({asked});
            const int row = model.rowCount() - 1;
            QCOMPARE(
                model.index(row, models::NetworkDecisionModel::DecisionColumn).data().toString(),
                QStringLiteral("denied"));
            QVERIFY2(model.index(row, 0).data(models::NetworkDecisionModel::AllowableRole).toBool(),
                     qPrintable(reason));
        }
        // Held while the user was asked: the row says so, with the answer.
        const auto askedRow = [&](const char *decision, const QString &reason,
                                  const QString &answer) {
            QJsonObject asked = line("decision", "asked.example", decision);
            asked.insert(QStringLiteral("reason"), reason);
            asked.insert(QStringLiteral("asked"), true);
            if (!answer.isEmpty())
                asked.insert(QStringLiteral("answer"), answer);
            model.addDecisions({asked});
            const QModelIndex decisionCell =
                model.index(model.rowCount() - 1, models::NetworkDecisionModel::DecisionColumn);
            if (!decisionCell.data(models::NetworkDecisionModel::AskedRole).toBool() ||
                !decisionCell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("asked")))
                return QStringLiteral("not marked");
            return decisionCell.data().toString();
        };
        QCOMPARE(askedRow("allow", QStringLiteral("allowed"), QStringLiteral("once")),
                 QStringLiteral("allowed (asked: allowed once)"));
        QCOMPARE(askedRow("allow", QStringLiteral("allowed"), QStringLiteral("turn")),
                 QStringLiteral("allowed (asked: allowed for the turn)"));
        QCOMPARE(askedRow("deny", QStringLiteral("user-denied"), QStringLiteral("deny")),
                 QStringLiteral("denied (asked: denied)"));
        QCOMPARE(askedRow("deny", QStringLiteral("no-answer"), QString()),
                 QStringLiteral("denied (asked: no answer)"));
        QCOMPARE(askedRow("deny", QStringLiteral("no-answer"), QStringLiteral("deny")),
                 QStringLiteral("denied (asked: no answer)"));
        // A request nobody asked about carries no marker.
        QVERIFY(!model.index(0, models::NetworkDecisionModel::DecisionColumn)
                     .data(models::NetworkDecisionModel::AskedRole)
                     .toBool());
        QVERIFY(model.index(0, models::NetworkDecisionModel::DecisionColumn)
                    .data(Qt::ToolTipRole)
                    .isNull());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // A long turn's earlier page goes first, and its requests take the
    // closes logged after them that found no row, as if read in order: the
    // latest open one for the host and port, oldest close first.
    void anEarlierPageGoesFirstAndTakesItsCloses()
    {
        models::NetworkDecisionModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto decision = [](const char *host) {
            return QJsonObject{{QStringLiteral("event"), QStringLiteral("decision")},
                               {QStringLiteral("host"), QLatin1String(host)},
                               {QStringLiteral("port"), 443},
                               {QStringLiteral("decision"), QStringLiteral("allow")},
                               {QStringLiteral("reason"), QStringLiteral("allowed")}};
        };
        const auto close = [](const char *host, int up) {
            return QJsonObject{{QStringLiteral("event"), QStringLiteral("close")},
                               {QStringLiteral("host"), QLatin1String(host)},
                               {QStringLiteral("port"), 443},
                               {QStringLiteral("bytes_up"), up},
                               {QStringLiteral("bytes_down"), 0}};
        };
        const auto bytes = [&model](int row) {
            return model.index(row, models::NetworkDecisionModel::BytesColumn).data().toString();
        };
        // The newer page: two closes whose requests are earlier, one of its own.
        model.addDecisions({close("a.example", 1), decision("b.example"), close("a.example", 2),
                            close("b.example", 3)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(bytes(0), QStringLiteral("3 up, 0 down"));
        // The earlier page: three requests to a.example, the first closed
        // within the page.
        model.prependDecisions({decision("a.example"), close("a.example", 4), decision("a.example"),
                                decision("a.example")});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(bytes(0), QStringLiteral("4 up, 0 down"));
        QCOMPARE(bytes(1), QStringLiteral("2 up, 0 down"));
        QCOMPARE(bytes(2), QStringLiteral("1 up, 0 down"));
        QCOMPARE(bytes(3), QStringLiteral("3 up, 0 down"));
    }

private:
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;
};

QTEST_GUILESS_MAIN(ModelsTest)
#include "test_models.moc"
