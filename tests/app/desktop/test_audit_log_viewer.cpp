// The audit log viewer offscreen on a real store: the folder, kind and time
// filters narrow the rows through the engine's query, rows written by
// arizukoctl appear while it is open, and a hostile kind typed into the
// filter is only ever a value (no rows, the log unchanged).

#include "audit/audit_log.h"
#include "audit_log_viewer.h"
#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "models/audit_log_model.h"
#include "policy/policy.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace arizuko;
using arizuko::desktop::AuditLogViewer;
using namespace editor_test;

class AuditLogViewerTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;

    static QStringList column(const AuditLogViewer &viewer, int column)
    {
        QStringList values;
        const models::AuditLogModel *model = viewer.model();
        for (int row = 0; row < model->rowCount(); ++row)
            values << model->index(row, column).data().toString();
        return values;
    }

    // Sets a filter the way `change` does and waits until its rows are shown.
    template<typename Change>
    static void filterAndWait(AuditLogViewer &viewer, Change change)
    {
        QSignalSpy reloaded(viewer.model(), &models::AuditLogModel::reloaded);
        change();
        QVERIFY(reloaded.wait());
    }

    static void chooseKind(AuditLogViewer &viewer, const QString &kind)
    {
        filterAndWait(viewer, [&viewer, &kind] {
            auto *combo = viewer.findChild<QComboBox *>(QStringLiteral("kind"));
            combo->setEditText(kind);
            viewer.applyFilter();
        });
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("lab")));
        policy::Policy policy(*m_store);
        QVERIFY(policy.network().add(QStringLiteral("corp"), QStringLiteral("github.com"),
                                     policy::RuleKind::Allow, QStringLiteral("user:test")));
        QVERIFY(policy.network().add(QStringLiteral("lab"), QStringLiteral("pypi.org"),
                                     policy::RuleKind::Deny, QStringLiteral("user:test")));
    }

    void modelIsConsistent()
    {
        models::AuditLogModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reloaded(&model, &models::AuditLogModel::reloaded);
        model.setFilter({});
        QVERIFY(reloaded.wait());
        QVERIFY(model.rowCount() >= 4);
    }

    // poll() appends what was written since, on a store of its own (the
    // other tests count this one's rows).
    void pollAppendsNewRows()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        models::AuditLogModel model(*store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reloaded(&model, &models::AuditLogModel::reloaded);
        model.setFilter({});
        QVERIFY(reloaded.wait());
        const int before = model.rowCount();
        QVERIFY(folders::Folders(*store, QStringLiteral("user:test")).add(QStringLiteral("new")));
        model.poll();
        QTRY_COMPARE(model.rowCount(), before + 1);
        QCOMPARE(model.index(before, models::AuditLogModel::SubjectColumn).data().toString(),
                 QStringLiteral("new"));
    }

    void filtersByKindFolderAndTime()
    {
        AuditLogViewer viewer(*m_workspace, {});
        chooseKind(viewer, QStringLiteral("network"));
        QCOMPARE(column(viewer, models::AuditLogModel::KindColumn),
                 (QStringList{QStringLiteral("network.add"), QStringLiteral("network.add")}));
        auto *folder = viewer.findChild<QComboBox *>(QStringLiteral("folder"));
        // The folders are read on a worker too.
        QTRY_VERIFY(folder->findData(QStringLiteral("lab")) >= 0);
        filterAndWait(
            viewer, [folder] { folder->setCurrentIndex(folder->findData(QStringLiteral("lab"))); });
        QCOMPARE(column(viewer, models::AuditLogModel::SubjectColumn),
                 QStringList{QStringLiteral("lab")});
        auto *since = viewer.findChild<QComboBox *>(QStringLiteral("since"));
        filterAndWait(viewer, [since] { since->setCurrentIndex(since->findData(3600)); });
        QCOMPARE(viewer.model()->rowCount(), 1);
        // Nothing is later than now: a filter from the future shows no rows.
        audit::Query future = viewer.model()->filter();
        future.since = QStringLiteral("2999-01-01T00:00:00.000Z");
        filterAndWait(viewer, [&viewer, &future] { viewer.model()->setFilter(future); });
        QCOMPARE(viewer.model()->rowCount(), 0);
    }

    // Opened on a folder (the window's current one), it shows that folder's
    // rows once the chooser holds the folder.
    void opensOnTheFolderGiven()
    {
        AuditLogViewer viewer(*m_workspace, QStringLiteral("lab"));
        QSignalSpy reloaded(viewer.model(), &models::AuditLogModel::reloaded);
        QVERIFY(reloaded.wait());
        const QStringList subjects = column(viewer, models::AuditLogModel::SubjectColumn);
        QVERIFY(!subjects.isEmpty());
        QCOMPARE(subjects, QStringList(subjects.size(), QStringLiteral("lab")));
        QCOMPARE(viewer.findChild<QComboBox *>(QStringLiteral("folder"))->currentData().toString(),
                 QStringLiteral("lab"));
    }

    void rowsByArizukoctlAppearLive()
    {
        AuditLogViewer viewer(*m_workspace, {});
        chooseKind(viewer, QStringLiteral("network"));
        const int before = viewer.model()->rowCount();
        const CtlResult added =
            arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("allow"),
                                      QStringLiteral("corp"), QStringLiteral("crates.io")});
        QCOMPARE(added.exitCode, 0);
        QTRY_COMPARE_WITH_TIMEOUT(viewer.model()->rowCount(), before + 1, 5000);
        QCOMPARE(column(viewer, models::AuditLogModel::ActorColumn).last(),
                 QStringLiteral("user:cli"));
        screenshot(viewer, QStringLiteral("audit-log-viewer"));
    }

    void hostileKindIsOnlyAValue()
    {
        const QByteArray before = arizukoctl(m_dir.path(), {QStringLiteral("audit")}).out;
        AuditLogViewer viewer(*m_workspace, {});
        QTRY_VERIFY(viewer.model()->rowCount() > 0);
        for (const QString &input : hostileInputs()) {
            chooseKind(viewer, input);
            QCOMPARE(viewer.model()->rowCount(), 0);
        }
        QCOMPARE(arizukoctl(m_dir.path(), {QStringLiteral("audit")}).out, before);
    }
};

QTEST_MAIN(AuditLogViewerTest)
#include "test_audit_log_viewer.moc"
