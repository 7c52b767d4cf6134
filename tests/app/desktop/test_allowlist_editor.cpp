// The allowlist editor as a person uses it, offscreen, on a real store:
// typed rules (a host, methods and a path) are shown in their stored form
// or refused with a sentence, an own rule is edited in place, a tested host
// and a tested request get the policy engine's own verdict, inherited rows
// stay read-only, and changes go both ways between the editor and arizukoctl.

#include "allowlist_editor.h"
#include "editor_test_support.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "folders/network_settings.h"
#include "models/network_rule_model.h"
#include "policy/policy.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QThreadPool>

using namespace arizuko;
using arizuko::desktop::AllowlistEditor;
using namespace editor_test;

namespace {

const QString actor = QStringLiteral("user:test");

} // namespace

class AllowlistEditorTest final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::Store> m_store;
    std::unique_ptr<engine::Workspace> m_workspace;

    QByteArray rulesJson(const QString &folder)
    {
        return arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("list"), folder})
            .out;
    }

private slots:
    void initTestCase()
    {
        m_store = openStore(m_dir);
        m_workspace = std::make_unique<engine::Workspace>(*m_store);
        folders::Folders folders(*m_store, actor);
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("corp/eng")));
        policy::Policy policy(*m_store);
        const auto base = policy.network().add(QString(), QStringLiteral("pypi.org"),
                                               policy::RuleKind::Allow, actor);
        QVERIFY2(base, base ? "" : qPrintable(base.error().message));
        QVERIFY(policy.network().add(QStringLiteral("corp"), QStringLiteral("github.com"),
                                     policy::RuleKind::Allow, actor));
        QVERIFY(policy.network().add(QStringLiteral("corp/eng"), QStringLiteral("gist.github.com"),
                                     policy::RuleKind::Deny, actor));
        // Rules by request, apart from corp's: a host allow entry and a deny
        // rule in lab, a rule by request of lab/ci's own.
        QVERIFY(folders.add(QStringLiteral("lab")));
        QVERIFY(folders.add(QStringLiteral("lab/ci")));
        QVERIFY(policy.network().add(QStringLiteral("lab"), QStringLiteral("github.com"),
                                     policy::RuleKind::Allow, actor));
        QVERIFY(policy.network().add(QStringLiteral("lab"), QStringLiteral("github.com"),
                                     policy::RuleKind::Deny, actor, QStringLiteral("POST"),
                                     QStringLiteral("/**/git-receive-pack")));
        QVERIFY(policy.network().add(QStringLiteral("lab/ci"), QStringLiteral("api.example.org"),
                                     policy::RuleKind::Allow, actor, QStringLiteral("GET,HEAD"),
                                     QStringLiteral("/v1/**")));
    }

    void modelIsConsistent()
    {
        models::NetworkRuleModel model(*m_store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reloaded(&model, &models::NetworkRuleModel::reloaded);
        model.setFolder(QStringLiteral("corp/eng"));
        QVERIFY(reloaded.wait());
        QCOMPARE(model.rowCount(), 3);
        model.reload();
        QVERIFY(reloaded.wait());
        QCOMPARE(model.rowCount(), 3);
    }

    // Reads that end out of order: only the newest is shown.
    void theNewestReadWins()
    {
        models::NetworkRuleModel model(*m_store);
        QSignalSpy reloaded(&model, &models::NetworkRuleModel::reloaded);
        model.setFolder(QStringLiteral("corp/eng"));
        model.setFolder(QStringLiteral("corp"));
        QVERIFY(reloaded.wait());
        // Both reads have ended and their answers have arrived.
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        QCoreApplication::processEvents();
        QCOMPARE(reloaded.size(), 1);
        QCOMPARE(model.rowCount(), 2);
    }

    void showsOwnAndInheritedRowsNamingTheirFolder()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        const models::NetworkRuleModel *model = editor.model();
        QTRY_COMPARE(model->rowCount(), 3);
        QStringList rows;
        for (int row = 0; row < model->rowCount(); ++row) {
            QStringList cells;
            for (int column :
                 {models::NetworkRuleModel::KindColumn, models::NetworkRuleModel::HostColumn,
                  models::NetworkRuleModel::FromColumn})
                cells << model->index(row, column).data().toString();
            // A host rule names no methods and no path: it covers every request.
            QCOMPARE(model->index(row, models::NetworkRuleModel::MethodsColumn).data().toString(),
                     QString());
            QCOMPARE(model->index(row, models::NetworkRuleModel::PathColumn).data().toString(),
                     QString());
            rows << cells.join(QLatin1Char(' '));
        }
        QCOMPARE(rows, (QStringList{QStringLiteral("allow pypi.org inherited from '' (base)"),
                                    QStringLiteral("allow github.com inherited from corp"),
                                    QStringLiteral("deny gist.github.com this folder")}));
        // An inherited row cannot be removed here; the button says so by being off.
        auto *table = child<QTableView>(editor, "rules");
        table->selectRow(0);
        QVERIFY(!child<QPushButton>(editor, "remove")->isEnabled());
        table->selectRow(2);
        QVERIFY(child<QPushButton>(editor, "remove")->isEnabled());
        // Refused before anything is written, whatever the button says.
        std::optional<Result<void>> refused;
        editor.model()->removeRule(0,
                                   [&refused](const Result<void> &removed) { refused = removed; });
        QVERIFY(refused && !*refused);
        QVERIFY2(refused->error().message.contains(QStringLiteral("remove it there")),
                 qPrintable(refused->error().message));
    }

    // The folder's setting for hosts on no allow entry: shown, changed by
    // the keyboard, stored (audited), and inherited by a subfolder.
    void theUnlistedHostsSettingIsShownAndSaved()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp"));
        auto *unlisted = editor.findChild<QComboBox *>(QStringLiteral("unlisted"));
        auto *timeout = editor.findChild<QSpinBox *>(QStringLiteral("askTimeout"));
        QVERIFY(unlisted && timeout);
        QTRY_VERIFY(unlisted->isEnabled());
        QCOMPARE(unlisted->currentData().toString(), QString());
        QCOMPARE(timeout->text(), QStringLiteral("Inherited"));
        unlisted->setFocus();
        QTest::keyClick(unlisted, Qt::Key_End); // the last item: ask
        QCOMPARE(unlisted->currentData().toString(), QStringLiteral("ask"));
        QTRY_VERIFY(folders::ownNetworkSettings(*m_store, QStringLiteral("corp"))->unlisted ==
                    folders::UnlistedHosts::Ask);
        timeout->setValue(90);
        emit timeout->editingFinished();
        QTRY_COMPARE(
            folders::networkSettings(*m_store, QStringLiteral("corp/eng"))->askTimeoutOrDefault(),
            std::chrono::seconds(90));
        QCOMPARE(
            folders::networkSettings(*m_store, QStringLiteral("corp/eng"))->unlistedOrDefault(),
            folders::UnlistedHosts::Ask);
        // Put back for the other tests.
        QVERIFY(folders::setNetworkSettings(*m_store, QStringLiteral("corp"), {}, actor));
    }

    void validationShowsTheStoredFormOrWhatToWriteInstead_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("upper case") << "GitHub.COM" << "Will be stored as github.com" << true;
        QTest::newRow("idn") << "bücher.example"
                             << "Will be stored as xn--bcher-kva.example" << true;
        QTest::newRow("wildcard") << "*.github.com" << "Will be stored as github.com" << true;
        QTest::newRow("url") << "https://github.com/x" << "is a URL" << false;
        QTest::newRow("url suggestion") << "https://github.com/x"
                                        << "did you mean 'github.com'" << false;
        QTest::newRow("star") << "*" << "egress grant" << false;
        QTest::newRow("port") << "github.com:443" << "carries a port" << false;
        QTest::newRow("path") << "github.com/org" << "contains a path" << false;
    }

    void validationShowsTheStoredFormOrWhatToWriteInstead()
    {
        QFETCH(QString, typed);
        QFETCH(QString, shown);
        QFETCH(bool, accepted);
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp"));
        // As typed, one character at a time (keyClicks knows no 'ü').
        auto *host = child<QLineEdit>(editor, "host");
        for (const QChar c : typed)
            host->insert(QString(c));
        const QString text = child<QLabel>(editor, "validation")->text();
        QVERIFY2(text.contains(shown), qPrintable(text));
        QCOMPARE(text.startsWith(QStringLiteral("Refused")), !accepted);
        QCOMPARE(child<QPushButton>(editor, "add")->isEnabled(), accepted);
    }

    void testAHostGivesThePolicyEnginesVerdict_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("inherited allow") << "api.github.com";
        QTest::newRow("own deny") << "gist.github.com";
        QTest::newRow("base allow") << "files.pypi.org";
        QTest::newRow("no rule") << "example.org";
    }

    void testAHostGivesThePolicyEnginesVerdict()
    {
        QFETCH(QString, host);
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        QTest::keyClicks(child<QLineEdit>(editor, "testHost"), host);
        policy::Policy policy(*m_store);
        const auto verdict = policy.network().test(QStringLiteral("corp/eng"), host);
        QVERIFY(verdict);
        const QString expected =
            QStringLiteral("%1 %2: %3")
                .arg(verdict->allowed ? QStringLiteral("ALLOWED") : QStringLiteral("DENIED"),
                     verdict->host, verdict->reason);
        // Answered over the rules the editor read.
        QTRY_COMPARE(child<QLabel>(editor, "verdict")->text(), expected);
    }

    void effectiveListIsWhatTheProxyReceives()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        QSignalSpy reloaded(editor.model(), &models::NetworkRuleModel::reloaded);
        QVERIFY(reloaded.wait());
        const QString text = child<QPlainTextEdit>(editor, "effective")->toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral("--allow pypi.org,github.com --deny gist.github.com")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("every other host: denied")));
    }

    void changeInTheEditorIsInTheStore()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp"));
        QTest::keyClicks(child<QLineEdit>(editor, "host"), QStringLiteral("Crates.IO"));
        QTest::mouseClick(child<QPushButton>(editor, "add"), Qt::LeftButton);
        auto *status = child<QLabel>(editor, "status");
        QTRY_VERIFY2(status->text().startsWith(QStringLiteral("Added allow crates.io")),
                     qPrintable(status->text()));
        const QJsonArray rules = QJsonDocument::fromJson(rulesJson(QStringLiteral("corp"))).array();
        bool found = false;
        for (const QJsonValue &rule : rules)
            found =
                found || (rule[QLatin1String("target")].toString() == QLatin1String("crates.io") &&
                          rule[QLatin1String("folder")].toString() == QLatin1String("corp"));
        QVERIFY2(found, rulesJson(QStringLiteral("corp")).constData());
        // And removed again through the editor, once the table shows it.
        auto *table = child<QTableView>(editor, "rules");
        const auto rowOf = [&editor](const QString &target) {
            for (int row = 0; row < editor.model()->rowCount(); ++row) {
                if (editor.model()
                        ->index(row, models::NetworkRuleModel::HostColumn)
                        .data()
                        .toString() == target)
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY(rowOf(QStringLiteral("crates.io")) >= 0);
        table->selectRow(rowOf(QStringLiteral("crates.io")));
        QTest::mouseClick(child<QPushButton>(editor, "remove"), Qt::LeftButton);
        QTRY_COMPARE(status->text(), QStringLiteral("Removed allow crates.io."));
        QTRY_COMPARE(rowOf(QStringLiteral("crates.io")), -1);
        QVERIFY(!rulesJson(QStringLiteral("corp")).contains("crates.io"));
    }

    // A rule by method and path is shown as narrow as it is, in the proxy's
    // arguments too, and removing its row removes it alone, not the host rule.
    void aRequestRuleIsShownWithItsMethodsAndPath()
    {
        m_workspace->setWatchInterval(50);
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        QSignalSpy reloaded(editor.model(), &models::NetworkRuleModel::reloaded);
        QVERIFY(reloaded.wait());
        const int before = editor.model()->rowCount();
        const CtlResult added =
            arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("allow"),
                                      QStringLiteral("corp/eng"), QStringLiteral("gist.github.com"),
                                      QStringLiteral("--method"), QStringLiteral("GET"),
                                      QStringLiteral("--path"), QStringLiteral("/acme/**")});
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), before + 1, 5000);
        const models::NetworkRuleModel *model = editor.model();
        const int row = before; // the newest rule of the deepest folder comes last
        QCOMPARE(model->index(row, models::NetworkRuleModel::MethodsColumn).data().toString(),
                 QStringLiteral("GET"));
        QCOMPARE(model->index(row, models::NetworkRuleModel::HostColumn).data().toString(),
                 QStringLiteral("gist.github.com"));
        QCOMPARE(model->index(row, models::NetworkRuleModel::PathColumn).data().toString(),
                 QStringLiteral("/acme/**"));
        QTRY_VERIFY(child<QPlainTextEdit>(editor, "effective")
                        ->toPlainText()
                        .contains(QStringLiteral("allow GET gist.github.com /acme/**")));
        auto *table = child<QTableView>(editor, "rules");
        table->selectRow(row);
        QTest::mouseClick(child<QPushButton>(editor, "remove"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), before, 5000);
        // The folder's host rule for the same host is still there.
        QVERIFY(rulesJson(QStringLiteral("corp/eng")).contains("\"gist.github.com\""));
    }

    // Typed with the keyboard only, as a person would: methods, host and
    // path, stored in their normal form; then the same rule edited in place.
    void aRuleByMethodAndPathIsAddedAndEditedByKeyboard()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("lab"));
        QSignalSpy reloaded(editor.model(), &models::NetworkRuleModel::reloaded);
        QVERIFY(reloaded.wait());
        editor.show();
        editor.activateWindow(); // no window manager under Xvfb does it
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        auto *kind = child<QComboBox>(editor, "kind");
        auto *status = child<QLabel>(editor, "status");
        auto *validation = child<QLabel>(editor, "validation");
        kind->setFocus();
        QTest::keyClick(kind, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "methods"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("get,head,get"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "host"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("API.GitHub.com"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "path"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("/repos/acme/**"));
        QVERIFY2(validation->text().startsWith(
                     QStringLiteral("Will be stored as GET,HEAD api.github.com /repos/acme/**: ")),
                 qPrintable(validation->text()));
        QVERIFY(child<QPushButton>(editor, "add")->isEnabled());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_COMPARE(status->text(),
                     QStringLiteral("Added allow GET,HEAD api.github.com /repos/acme/**; it "
                                    "applies from the folder's next turn."));
        QCOMPARE(child<QLineEdit>(editor, "path")->text(), QString());
        const auto stored = [&](const QString &methods, const QString &path) {
            for (const QJsonValue &rule :
                 QJsonDocument::fromJson(rulesJson(QStringLiteral("lab"))).array()) {
                if (rule[QLatin1String("target")].toString() == QLatin1String("api.github.com") &&
                    rule[QLatin1String("methods")].toString() == methods &&
                    rule[QLatin1String("path")].toString() == path)
                    return true;
            }
            return false;
        };
        QVERIFY2(stored(QStringLiteral("GET,HEAD"), QStringLiteral("/repos/acme/**")),
                 rulesJson(QStringLiteral("lab")).constData());

        // Edit: the row chosen with the arrow keys, Edit pressed with Space.
        const auto rowOf = [&editor](const QString &path) {
            for (int row = 0; row < editor.model()->rowCount(); ++row) {
                if (editor.model()
                        ->index(row, models::NetworkRuleModel::PathColumn)
                        .data()
                        .toString() == path)
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY(rowOf(QStringLiteral("/repos/acme/**")) >= 0);
        auto *table = child<QTableView>(editor, "rules");
        table->setFocus();
        table->setCurrentIndex(editor.model()->index(0, 0));
        while (table->currentIndex().row() < rowOf(QStringLiteral("/repos/acme/**")))
            QTest::keyClick(table, Qt::Key_Down);
        auto *edit = child<QPushButton>(editor, "edit");
        QVERIFY(edit->isEnabled());
        QVERIFY(child<QPushButton>(editor, "remove")->isEnabled());
        edit->setFocus();
        QTest::keyClick(edit, Qt::Key_Space);
        QCOMPARE(child<QLineEdit>(editor, "methods")->text(), QStringLiteral("GET,HEAD"));
        QCOMPARE(child<QLineEdit>(editor, "host")->text(), QStringLiteral("api.github.com"));
        QCOMPARE(child<QLineEdit>(editor, "path")->text(), QStringLiteral("/repos/acme/**"));
        QCOMPARE(child<QPushButton>(editor, "add")->text(), QStringLiteral("Sa&ve change"));
        // Removing the rule being edited is off until the edit ends.
        QVERIFY(!child<QPushButton>(editor, "remove")->isEnabled());
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "methods"));
        child<QLineEdit>(editor, "methods")->selectAll();
        QTest::keyClicks(child<QLineEdit>(editor, "methods"), QStringLiteral("GET"));
        child<QLineEdit>(editor, "path")->selectAll();
        QTest::keyClicks(child<QLineEdit>(editor, "path"), QStringLiteral("/repos/acme/tool/**"));
        QTest::keyClick(child<QLineEdit>(editor, "path"), Qt::Key_Return);
        QTRY_VERIFY2(status->text().startsWith(
                         QStringLiteral("Changed to allow GET api.github.com /repos/acme/tool/**")),
                     qPrintable(status->text()));
        QVERIFY(stored(QStringLiteral("GET"), QStringLiteral("/repos/acme/tool/**")));
        QVERIFY(!stored(QStringLiteral("GET,HEAD"), QStringLiteral("/repos/acme/**")));
        QCOMPARE(child<QPushButton>(editor, "add")->text(), QStringLiteral("&Add rule"));
        // The table shows the new rule in place of the old one.
        QTRY_VERIFY(rowOf(QStringLiteral("/repos/acme/tool/**")) >= 0);
        QCOMPARE(rowOf(QStringLiteral("/repos/acme/**")), -1);
        table->selectRow(rowOf(QStringLiteral("/repos/acme/tool/**")));
        screenshot(editor, QStringLiteral("allowlist-editor-request-rule"));
        QTest::mouseClick(child<QPushButton>(editor, "remove"), Qt::LeftButton);
        QTRY_COMPARE(status->text(),
                     QStringLiteral("Removed allow GET api.github.com /repos/acme/tool/**."));
        QVERIFY(!stored(QStringLiteral("GET"), QStringLiteral("/repos/acme/tool/**")));
    }

    // An inherited rule cannot be edited here: the button is off, and the
    // model refuses before anything is written.
    void anInheritedRuleIsNotEdited()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("lab/ci"));
        QTRY_VERIFY(editor.model()->rowCount() > 0);
        const QByteArray before = rulesJson(QStringLiteral("lab"));
        auto *table = child<QTableView>(editor, "rules");
        int inherited = -1;
        for (int row = 0; row < editor.model()->rowCount() && inherited < 0; ++row) {
            if (!editor.model()->index(row, 0).data(models::NetworkRuleModel::OwnRole).toBool())
                inherited = row;
        }
        QVERIFY(inherited >= 0);
        table->selectRow(inherited);
        QVERIFY(!child<QPushButton>(editor, "edit")->isEnabled());
        const policy::NetworkRule old = editor.model()->effective().rules.at(inherited);
        policy::NetworkRule wanted = old;
        wanted.path = QStringLiteral("/x/**");
        wanted.methods = QStringLiteral("GET");
        std::optional<Result<policy::AddedRule>> refused;
        editor.model()->replace(
            old, wanted, [&refused](const Result<policy::AddedRule> &done) { refused = done; });
        QVERIFY(refused && !*refused);
        QVERIFY2(refused->error().message.contains(QStringLiteral("change it there")),
                 qPrintable(refused->error().message));
        QCOMPARE(rulesJson(QStringLiteral("lab")), before);
    }

    void methodsAndPathAreRefusedWithTheEnginesSentence_data()
    {
        QTest::addColumn<QString>("methods");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("shown");
        QTest::newRow("blank in methods") << "GET POST"
                                          << "/x"
                                          << "'GET POST' is not a list of methods";
        QTest::newRow("empty method") << "GET,,HEAD"
                                      << "/x"
                                      << "is not a list of methods";
        QTest::newRow("digit") << "GET2"
                               << "/x"
                               << "is not a list of methods";
        QTest::newRow("relative path") << "GET"
                                       << "repos/x"
                                       << "'repos/x' is not a path pattern";
        QTest::newRow("query") << "GET"
                               << "/repos?x=1"
                               << "is not a path pattern";
        QTest::newRow("partial double star") << ""
                                             << "/a/**b"
                                             << "is not a path pattern";
        QTest::newRow("blank in path") << ""
                                       << "/a b"
                                       << "'/a b' is not a path pattern";
    }

    void methodsAndPathAreRefusedWithTheEnginesSentence()
    {
        QFETCH(QString, methods);
        QFETCH(QString, path);
        QFETCH(QString, shown);
        const QByteArray before = rulesJson(QStringLiteral("lab"));
        AllowlistEditor editor(*m_workspace, QStringLiteral("lab"));
        QTest::keyClicks(child<QLineEdit>(editor, "methods"), methods);
        QTest::keyClicks(child<QLineEdit>(editor, "host"), QStringLiteral("api.github.com"));
        QTest::keyClicks(child<QLineEdit>(editor, "path"), path);
        const QString text = child<QLabel>(editor, "validation")->text();
        QVERIFY2(text.startsWith(QStringLiteral("Refused: ")) && text.contains(shown),
                 qPrintable(text));
        QVERIFY(!child<QPushButton>(editor, "add")->isEnabled());
        // Enter past the button: refused with the same sentence, nothing written.
        QTest::keyClick(child<QLineEdit>(editor, "path"), Qt::Key_Return);
        const QString status = child<QLabel>(editor, "status")->text();
        QVERIFY2(status.startsWith(QStringLiteral("Not added: ")) && status.contains(shown),
                 qPrintable(status));
        QCOMPARE(rulesJson(QStringLiteral("lab")), before);
    }

    void testARequestGivesThePolicyEnginesVerdict_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("decidedBy");
        QTest::addColumn<bool>("inspected");
        QTest::newRow("inherited host entry")
            << "GET"
            << "github.com"
            << "/acme/tool.git/info/refs" << true
            << "Decided by allow github.com, inherited from lab." << true;
        QTest::newRow("inherited deny rule")
            << "POST"
            << "github.com"
            << "/acme/tool.git/git-receive-pack" << false
            << "Decided by deny POST github.com /**/git-receive-pack, inherited from lab." << true;
        QTest::newRow("own rule") << "get"
                                  << "api.example.org"
                                  << "/v1/items" << true
                                  << "Decided by allow GET,HEAD api.example.org /v1/**, a rule "
                                     "of this folder."
                                  << true;
        QTest::newRow("no matching rule") << "DELETE"
                                          << "api.example.org"
                                          << "/v1/items" << false << "No rule allows it." << true;
        QTest::newRow("other path") << "GET"
                                    << "api.example.org"
                                    << "/v2/items" << false << "No rule allows it." << true;
        QTest::newRow("plain host")
            << "POST"
            << "files.pypi.org"
            << "/upload" << true << "Decided by allow pypi.org, inherited from '' (base)." << false;
        QTest::newRow("no rule at all") << "GET"
                                        << "example.com"
                                        << "/" << false << "No rule allows it." << false;
    }

    void testARequestGivesThePolicyEnginesVerdict()
    {
        QFETCH(QString, method);
        QFETCH(QString, host);
        QFETCH(QString, path);
        QFETCH(bool, allowed);
        QFETCH(QString, decidedBy);
        QFETCH(bool, inspected);
        AllowlistEditor editor(*m_workspace, QStringLiteral("lab/ci"));
        QSignalSpy reloaded(editor.model(), &models::NetworkRuleModel::reloaded);
        QVERIFY(reloaded.wait());
        editor.show();
        editor.activateWindow(); // no window manager under Xvfb does it
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        auto *methodField = child<QComboBox>(editor, "requestMethod");
        methodField->setFocus();
        methodField->lineEdit()->selectAll();
        QTest::keyClicks(methodField, method);
        QTest::keyClick(methodField, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "requestHost"));
        QTest::keyClicks(QApplication::focusWidget(), host);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "requestPath"));
        QTest::keyClicks(QApplication::focusWidget(), path);
        const auto expected = policy::Policy(*m_store).network().testRequest(
            QStringLiteral("lab/ci"), method, host, path);
        QVERIFY(expected);
        QCOMPARE(expected->allowed, allowed);
        QCOMPARE(expected->inspected, inspected);
        const QStringList lines =
            child<QLabel>(editor, "requestVerdict")->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0), allowed ? QStringLiteral("ALLOWED") : QStringLiteral("DENIED"));
        QCOMPARE(lines.at(1), decidedBy);
        QCOMPARE(lines.at(2), inspected ? QStringLiteral("%1 is inspected: the proxy judges each "
                                                         "request to it.")
                                              .arg(expected->host)
                                        : QStringLiteral("%1 is not inspected: its allow and deny "
                                                         "entries decide for the whole connection.")
                                              .arg(expected->host));
        QCOMPARE(lines.at(3), QStringLiteral("The proxy's reason: %1").arg(expected->reason));
        if (QTest::currentDataTag() == QByteArray("inherited deny rule"))
            screenshot(editor, QStringLiteral("allowlist-editor-test-request"));
    }

    void aRequestThatCannotBeIsRefused()
    {
        AllowlistEditor editor(*m_workspace, QStringLiteral("lab/ci"));
        auto *verdict = child<QLabel>(editor, "requestVerdict");
        QVERIFY(verdict->text().startsWith(QStringLiteral("Type a method, a host and a path")));
        child<QLineEdit>(editor, "requestHost")->setText(QStringLiteral("github.com"));
        for (const QString &method :
             {QStringLiteral("GET,POST"), QStringLiteral("*"), QStringLiteral("G T")}) {
            child<QComboBox>(editor, "requestMethod")->setEditText(method);
            QVERIFY2(verdict->text().startsWith(QStringLiteral("Not a request: '%1' is not a "
                                                               "method")
                                                    .arg(method)),
                     qPrintable(verdict->text()));
        }
        child<QComboBox>(editor, "requestMethod")->setEditText(QStringLiteral("GET"));
        child<QLineEdit>(editor, "requestPath")->setText(QStringLiteral("/a?b=1"));
        QVERIFY2(verdict->text().startsWith(QStringLiteral("Not a request: '/a?b=1' is not a "
                                                           "request path")),
                 qPrintable(verdict->text()));
    }

    void changeByArizukoctlAppearsInTheOpenEditor()
    {
        m_workspace->setWatchInterval(50);
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp/eng"));
        QSignalSpy reloaded(editor.model(), &models::NetworkRuleModel::reloaded);
        QVERIFY(reloaded.wait());
        const int before = editor.model()->rowCount();
        const CtlResult added =
            arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("allow"),
                                      QStringLiteral("corp"), QStringLiteral("npmjs.org")});
        QCOMPARE(added.exitCode, 0);
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), before + 1, 5000);
        QTRY_VERIFY(child<QPlainTextEdit>(editor, "effective")
                        ->toPlainText()
                        .contains(QStringLiteral("npmjs.org")));
        // An egress grant by arizukoctl turns "every other host" to allowed.
        const CtlResult granted =
            arizukoctl(m_dir.path(),
                       {QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                        QStringLiteral("egress"), QStringLiteral("corp/eng")});
        QVERIFY2(granted.exitCode == 0, granted.err.constData());
        QTRY_VERIFY(child<QPlainTextEdit>(editor, "effective")
                        ->toPlainText()
                        .contains(QStringLiteral("--allow-all")));
        child<QLineEdit>(editor, "host")->setText(QStringLiteral("https://Bücher.Example/docs"));
        child<QLineEdit>(editor, "testHost")->setText(QStringLiteral("api.github.com"));
        screenshot(editor, QStringLiteral("allowlist-editor"));
        child<QLineEdit>(editor, "host")->clear();
        const CtlResult removed =
            arizukoctl(m_dir.path(), {QStringLiteral("network"), QStringLiteral("rm"),
                                      QStringLiteral("corp"), QStringLiteral("npmjs.org")});
        QCOMPARE(removed.exitCode, 0);
        QTRY_COMPARE_WITH_TIMEOUT(editor.model()->rowCount(), before, 5000);
    }

    void hostileInputIsRefusedAndTheStoreUnchanged()
    {
        const QByteArray before = rulesJson(QString());
        AllowlistEditor editor(*m_workspace, QStringLiteral("corp"));
        auto *host = child<QLineEdit>(editor, "host");
        auto *status = child<QLabel>(editor, "status");
        auto *testHost = child<QLineEdit>(editor, "testHost");
        for (const QString &input : hostileInputs()) {
            host->setText(input);
            const QString validation = child<QLabel>(editor, "validation")->text();
            QVERIFY2(validation.startsWith(QStringLiteral("Refused: ")), qPrintable(validation));
            QVERIFY(!child<QPushButton>(editor, "add")->isEnabled());
            // Enter goes past the button: the engine refuses on its own.
            status->clear();
            QTest::keyClick(host, Qt::Key_Return);
            QTRY_VERIFY2(status->text().startsWith(QStringLiteral("Not added: ")),
                         qPrintable(status->text()));
            testHost->setText(input);
            QVERIFY(child<QLabel>(editor, "verdict")
                        ->text()
                        .startsWith(QStringLiteral("Not a host: ")));
            child<QLineEdit>(editor, "requestHost")->setText(input);
            QVERIFY(child<QLabel>(editor, "requestVerdict")
                        ->text()
                        .startsWith(QStringLiteral("Not a request: ")));
            // In methods or path of a rule for a good host, and as a request's path.
            host->setText(QStringLiteral("github.com"));
            for (const char *field : {"methods", "path"}) {
                child<QLineEdit>(editor, field)->setText(input);
                const QString refused = child<QLabel>(editor, "validation")->text();
                QVERIFY2(refused.startsWith(QStringLiteral("Refused: ")), qPrintable(refused));
                QVERIFY(!child<QPushButton>(editor, "add")->isEnabled());
                child<QLineEdit>(editor, field)->clear();
            }
            child<QLineEdit>(editor, "requestHost")->setText(QStringLiteral("github.com"));
            child<QLineEdit>(editor, "requestPath")->setText(input);
            QVERIFY(child<QLabel>(editor, "requestVerdict")
                        ->text()
                        .startsWith(QStringLiteral("Not a request: ")));
            child<QLineEdit>(editor, "requestPath")->clear();
            // Shown escaped and cut short, never reordering the sentence
            // (the fields themselves hold what was typed).
            for (const QLabel *label : editor.findChildren<QLabel *>()) {
                const QString text = label->text();
                QVERIFY2(!text.contains(QChar(0x202E)) && !text.contains(QChar(0)) &&
                             !text.contains(QChar(1)) && text.size() < 1000,
                         qPrintable(text.left(200)));
            }
        }
        QCOMPARE(rulesJson(QString()), before);
    }
};

QTEST_MAIN(AllowlistEditorTest)
#include "test_allowlist_editor.moc"
