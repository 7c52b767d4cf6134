// The grants editor offscreen on a real store: the effective-tools preview
// follows a grant, a deny and a revoke with the deciding row named; broad
// grants, and a shell:env grant with its warning, wait for a confirmation;
// hostile fields are refused with the store unchanged; and changes go both
// ways with arizukoctl.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "grants_editor.h"
#include "models/effective_tool_model.h"
#include "models/grant_model.h"
#include "policy/policy.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>

using namespace arizuko;
using arizuko::desktop::GrantsEditor;
using namespace editor_test;

class GrantsEditorTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;

    QByteArray grantsJson()
    {
        return arizukoctl(m_dir.path(), {QStringLiteral("grant"), QStringLiteral("list")}).out;
    }

    void fill(GrantsEditor &editor, const QString &action, const QString &scope, bool deny,
              const QString &params = {})
    {
        child<QLineEdit>(editor, "principal")->setText(QStringLiteral("corp/eng"));
        child<QLineEdit>(editor, "action")->setText(action);
        child<QLineEdit>(editor, "scope")->setText(scope);
        child<QLineEdit>(editor, "params")->setText(params);
        auto *effect = child<QComboBox>(editor, "effect");
        effect->setCurrentIndex(
            effect->findData(int(deny ? policy::Effect::Deny : policy::Effect::Allow)));
    }

    // The editor once its grants and its preview are read.
    static void waitForTools(GrantsEditor &editor)
    {
        QSignalSpy tools(editor.tools(), &models::EffectiveToolModel::reloaded);
        QVERIFY(tools.wait());
    }

    // Clicks Add (or Remove) and waits for the sentence the change ends with.
    static void clickAndWait(GrantsEditor &editor, const char *button, const QString &status)
    {
        child<QLabel>(editor, "status")->clear();
        QTest::mouseClick(child<QPushButton>(editor, button), Qt::LeftButton);
        QTRY_VERIFY2(child<QLabel>(editor, "status")->text().startsWith(status),
                     qPrintable(child<QLabel>(editor, "status")->text()));
    }

    // The preview's row for tool once `shown` holds for it (the preview is
    // read after the grants, a moment after the change), or as it is after
    // five seconds: the caller checks it.
    template<typename Shown>
    static const models::EffectiveToolModel::Row *toolOnceShown(GrantsEditor &editor,
                                                                const QString &tool, Shown shown)
    {
        (void)QTest::qWaitFor([&] { return shown(editor.tools()->find(tool)); }, 5000);
        return editor.tools()->find(tool);
    }

    int rowOfGrant(GrantsEditor &editor, qint64 id)
    {
        for (int row = 0; row < editor.model()->rowCount(); ++row) {
            if (editor.model()->index(row, 0).data(models::GrantModel::IdRole).toLongLong() == id)
                return row;
        }
        return -1;
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("corp/eng")));
    }

    void modelsAreConsistent()
    {
        models::GrantModel grants(*m_store);
        QAbstractItemModelTester grantsTester(
            &grants, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy grantsRead(&grants, &models::GrantModel::reloaded);
        grants.setFolder(QStringLiteral("corp/eng"));
        QVERIFY(grantsRead.wait());
        QVERIFY(grants.rowCount() > 0); // the seeded role:member rows apply
        models::EffectiveToolModel tools(*m_store);
        QAbstractItemModelTester toolsTester(
            &tools, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy toolsRead(&tools, &models::EffectiveToolModel::reloaded);
        tools.setFolder(QStringLiteral("corp/eng"));
        QVERIFY(toolsRead.wait());
        QVERIFY(tools.find(QStringLiteral("mcp:reply")));
    }

    void previewFollowsAGrantADenyAndARevoke()
    {
        GrantsEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        waitForTools(editor);
        const models::EffectiveToolModel *tools = editor.tools();
        QVERIFY(!tools->find(QStringLiteral("mcp:deploy")));
        const auto *reply = tools->find(QStringLiteral("mcp:reply"));
        QVERIFY2(reply && reply->visible && reply->decidingGrant &&
                     reply->decidingGrant->principal == QLatin1String("role:member"),
                 "the seeded member grant shows as the reason");

        // A grant: the tool appears, decided by that row.
        fill(editor, QStringLiteral("mcp:deploy"), QStringLiteral("corp/eng"), false);
        QVERIFY(child<QPushButton>(editor, "add")->isEnabled());
        clickAndWait(editor, "add", QStringLiteral("Added "));
        const auto visible = [](const auto *row) { return row && row->visible; };
        const auto *deploy = toolOnceShown(editor, QStringLiteral("mcp:deploy"), visible);
        QVERIFY2(visible(deploy), qPrintable(child<QLabel>(editor, "status")->text()));
        const qint64 grantId = deploy->decidingGrant->id;
        QVERIFY(grantsJson().contains("mcp:deploy"));

        // A deny from the base of the subtree: hidden, and the deny is named.
        fill(editor, QStringLiteral("mcp:deploy"), QStringLiteral("corp/eng"), true);
        clickAndWait(editor, "add", QStringLiteral("Added "));
        const auto hidden = [](const auto *row) { return row && !row->visible; };
        deploy = toolOnceShown(editor, QStringLiteral("mcp:deploy"), hidden);
        QVERIFY(hidden(deploy));
        QCOMPARE(deploy->decidingGrant->effect, policy::Effect::Deny);
        const qint64 denyId = deploy->decidingGrant->id;
        QVERIFY(deploy->reason.contains(QStringLiteral("deny")));
        // For the user guide: the deny named beside the hidden tool, and a
        // broad grant waiting for its confirmation.
        fill(editor, QStringLiteral("egress"), QStringLiteral("corp/eng"), false);
        screenshot(editor, QStringLiteral("grants-editor"));

        // Revoking the deny shows the tool again, by the grant.
        auto *table = child<QTableView>(editor, "grants");
        table->selectRow(rowOfGrant(editor, denyId));
        clickAndWait(editor, "remove", QStringLiteral("Removed "));
        deploy = toolOnceShown(editor, QStringLiteral("mcp:deploy"), visible);
        QVERIFY(visible(deploy) && deploy->decidingGrant->id == grantId);

        // Revoking the grant takes the tool away.
        table->selectRow(rowOfGrant(editor, grantId));
        clickAndWait(editor, "remove", QStringLiteral("Removed "));
        QTRY_VERIFY(!tools->find(QStringLiteral("mcp:deploy")));
        QVERIFY(!grantsJson().contains("mcp:deploy"));
    }

    void broadGrantsWaitForConfirmation_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("scope");
        QTest::newRow("every action") << "*" << "corp/eng";
        QTest::newRow("egress") << "egress" << "corp/eng";
        QTest::newRow("every folder") << "mcp:reply" << "**";
        QTest::newRow("a secret into the guest") << "shell:env:GITHUB_TOKEN"
                                                 << "corp/eng";
    }

    void broadGrantsWaitForConfirmation()
    {
        QFETCH(QString, action);
        QFETCH(QString, scope);
        GrantsEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        waitForTools(editor);
        fill(editor, action, scope, false);
        auto *confirm = child<QCheckBox>(editor, "confirmBroad");
        auto *add = child<QPushButton>(editor, "add");
        QVERIFY(!confirm->isHidden());
        QVERIFY(!add->isEnabled());
        const QByteArray before = grantsJson();
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(grantsJson(), before);
        confirm->setChecked(true);
        QVERIFY(add->isEnabled());
        clickAndWait(editor, "add", QStringLiteral("Added "));
        const QJsonArray rows = QJsonDocument::fromJson(grantsJson()).array();
        qint64 id = 0;
        for (const QJsonValue &row : rows) {
            if (row[QLatin1String("principal")].toString() == QLatin1String("corp/eng") &&
                row[QLatin1String("action")].toString() == action &&
                row[QLatin1String("scope")].toString() == scope)
                id = row[QLatin1String("id")].toInteger();
        }
        QVERIFY2(id > 0, grantsJson().constData());
        QCOMPARE(arizukoctl(m_dir.path(),
                            {QStringLiteral("grant"), QStringLiteral("rm"), QString::number(id)})
                     .exitCode,
                 0);
    }

    // A shell:env grant hands the key to the agent: the form says so, names
    // the key and points to a connector, and adds the row only once ticked.
    void shellEnvGrantWarnsAndWaitsForConfirmation()
    {
        GrantsEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        fill(editor, QStringLiteral("shell:env:GITHUB_TOKEN"), QStringLiteral("corp/eng"), false);
        auto *confirm = child<QCheckBox>(editor, "confirmBroad");
        auto *add = child<QPushButton>(editor, "add");
        QVERIFY(!confirm->isHidden());
        const QString warning = confirm->text();
        QVERIFY2(warning.contains(QStringLiteral("GITHUB_TOKEN enters the agent's environment")) &&
                     warning.contains(QStringLiteral("leaves the host's control")) &&
                     warning.contains(QStringLiteral("a connector keeps the key on the host")),
                 qPrintable(warning));
        // Changing one's mind (ticked, then not) adds nothing.
        const QByteArray before = grantsJson();
        confirm->setChecked(true);
        confirm->setChecked(false);
        QVERIFY(!add->isEnabled());
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(grantsJson(), before);
        // A deny only keeps the key out: nothing to warn about.
        fill(editor, QStringLiteral("shell:env:GITHUB_TOKEN"), QStringLiteral("corp/eng"), true);
        QVERIFY(confirm->isHidden());
        QVERIFY(add->isEnabled());
    }

    void changeByArizukoctlAppearsInTheOpenEditor()
    {
        m_workspace->setWatchInterval(50);
        GrantsEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        waitForTools(editor);
        QVERIFY(!editor.tools()->find(QStringLiteral("mcp:lint")));
        const CtlResult added =
            arizukoctl(m_dir.path(),
                       {QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                        QStringLiteral("mcp:lint"), QStringLiteral("corp/eng")});
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QTRY_VERIFY_WITH_TIMEOUT(editor.tools()->find(QStringLiteral("mcp:lint")), 5000);
        QVERIFY(editor.tools()->find(QStringLiteral("mcp:lint"))->visible);
    }

    void hostileInputIsRefusedAndTheStoreUnchanged()
    {
        GrantsEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        const QByteArray before = grantsJson();
        for (const char *field : {"principal", "action", "scope", "params"}) {
            for (const QString &input : hostileInputs()) {
                fill(editor, QStringLiteral("mcp:reply"), QStringLiteral("corp/eng"), false);
                const QString typed = QLatin1String(field) == QLatin1String("params")
                                          ? QStringLiteral("jid=") + input
                                          : input;
                child<QLineEdit>(editor, field)->setText(typed);
                const QString validation = child<QLabel>(editor, "validation")->text();
                QVERIFY2(validation.startsWith(QStringLiteral("Refused: ")),
                         qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(field),
                                                                 validation.left(300))));
                QVERIFY(!child<QPushButton>(editor, "add")->isEnabled());
                // The engine refuses the same row on its own, whatever the form does.
                policy::Grant grant;
                grant.principal = child<QLineEdit>(editor, "principal")->text();
                grant.action = child<QLineEdit>(editor, "action")->text();
                grant.scope = child<QLineEdit>(editor, "scope")->text();
                const auto params =
                    models::GrantModel::parseParams(child<QLineEdit>(editor, "params")->text());
                // Params that are not NAME=GLOB pairs never make a row at all.
                if (params) {
                    grant.params = *params;
                    std::optional<Result<policy::Grant>> added;
                    editor.model()->add(
                        grant, [&added](const Result<policy::Grant> &result) { added = result; });
                    QTRY_VERIFY(added);
                    QVERIFY(!*added);
                }
                // Shown escaped and cut short, never reordering the sentence.
                QVERIFY(!validation.contains(QChar(0x202E)) && !validation.contains(QChar(0)) &&
                        validation.size() < 1000);
            }
        }
        QCOMPARE(grantsJson(), before);
    }
};

QTEST_MAIN(GrantsEditorTest)
#include "test_grants_editor.moc"
