// The audit log viewer offscreen on a real store: the folder, kind and time
// filters narrow the rows through the engine's query, rows written by
// arizukoctl appear while it is open, and a hostile kind typed into the
// filter is only ever a value (no rows, the log unchanged).

#include "audit_log_viewer.h"
#include "editor_test_support.h"

#include "audit/audit_log.h"
#include "models/audit_log_model.h"
#include "policy/policy.h"
#include "folders/folders.h"

#include <QAbstractItemModelTester>

using namespace arizuko;
using arizuko::desktop::AuditLogViewer;
using namespace editor_test;

class AuditLogViewerTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;

    static QStringList column(const AuditLogViewer &viewer, int column)
    {
        QStringList values;
        const models::AuditLogModel *model = viewer.model();
        for (int row = 0; row < model->rowCount(); ++row)
            values << model->index(row, column).data().toString();
        return values;
    }

    static void chooseKind(AuditLogViewer &viewer, const QString &kind)
    {
        auto *combo = viewer.findChild<QComboBox *>(QStringLiteral("kind"));
        combo->setEditText(kind);
        viewer.applyFilter();
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
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
        QVERIFY(model.setFilter({}));
        QVERIFY(model.rowCount() >= 4);
        QVERIFY(model.poll());
    }

    void filtersByKindFolderAndTime()
    {
        AuditLogViewer viewer(*m_store, {});
        chooseKind(viewer, QStringLiteral("network"));
        QCOMPARE(column(viewer, models::AuditLogModel::KindColumn),
                 (QStringList{QStringLiteral("network.add"), QStringLiteral("network.add")}));
        auto *folder = viewer.findChild<QComboBox *>(QStringLiteral("folder"));
        folder->setCurrentIndex(folder->findData(QStringLiteral("lab")));
        QCOMPARE(column(viewer, models::AuditLogModel::SubjectColumn),
                 QStringList{QStringLiteral("lab")});
        auto *since = viewer.findChild<QComboBox *>(QStringLiteral("since"));
        since->setCurrentIndex(since->findData(3600));
        QCOMPARE(viewer.model()->rowCount(), 1);
        // Nothing is later than now: a filter from the future shows no rows.
        audit::Query future = viewer.model()->filter();
        future.since = QStringLiteral("2999-01-01T00:00:00.000Z");
        QVERIFY(viewer.model()->setFilter(future));
        QCOMPARE(viewer.model()->rowCount(), 0);
    }

    void rowsByArizukoctlAppearLive()
    {
        AuditLogViewer viewer(*m_store, {});
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
        AuditLogViewer viewer(*m_store, {});
        for (const QString &input : hostileInputs()) {
            chooseKind(viewer, input);
            QCOMPARE(viewer.model()->rowCount(), 0);
        }
        QCOMPARE(arizukoctl(m_dir.path(), {QStringLiteral("audit")}).out, before);
    }
};

QTEST_MAIN(AuditLogViewerTest)
#include "test_audit_log_viewer.moc"
