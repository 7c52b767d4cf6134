// Connectors in the real window under Xvfb, as a person uses them: the
// Folder menu's Connectors editor over a real store lists the built-in and
// the user's connectors and the definition file left out (file and line),
// says for the chosen folder which operations its agent will see and by
// which grant (and follows a revoke made with arizukoctl), whether each
// secret is set up the tree, and "Try" makes a real HTTPS call on the
// engine thread to a loopback server whose CA only this test trusts, while
// the window keeps turning; its fields are reached by keyboard and keep
// what was typed when a grant change reads the view again. Then a connector
// call made by the real engine shows in the window's transcript with its
// method, path and status, and the key nowhere on the page.

#include "agent/agent_events.h"
#include "connectors_editor.h"
#include "editor_test_support.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "folders/folders.h"
#include "json_lines_file.h"
#include "main_window.h"
#include "models/connector_list_model.h"
#include "models/connector_operation_model.h"
#include "policy/policy.h"
#include "secrets/secret_store.h"
#include "stall_meter.h"
#include "store/timestamp.h"
#include "tools/turn_tools.h"
#include "transcript_page.h"
#include "transcript_view.h"
#include "turn_records/turn_records.h"
#include "web_test_support.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QWebEngineView>

using namespace arizuko;
using namespace editor_test;
using desktop::ConnectorsEditor;
using desktop::MainWindow;

namespace {

const QByteArray key = "window-key-3b9e1f07c2d4";
// The user's file the catalogue must leave out, with the line it names.
const QByteArray brokenDefinition = "[[ext]]\nservice = \"broken\nbase_url = 1\n";

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace

class ConnectorsWindowTest final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QTemporaryDir m_serverDir;
    QProcess m_server;
    std::unique_ptr<store::Store> m_store;
    qint64 m_grant = 0;

    QList<QJsonObject> requests()
    {
        return test::jsonLines(m_serverDir.filePath(QStringLiteral("requests.jsonl")));
    }

    static QString cell(const QAbstractItemModel *model, int row, int column)
    {
        return model->index(row, column).data().toString();
    }

    static int rowOfTool(const models::ConnectorOperationModel *operations, const char *tool)
    {
        return operations->rowOf(QString::fromLatin1(tool));
    }

    // Chooses an operation and types its arguments, as a person would.
    static void chooseOperation(ConnectorsEditor &editor, const char *service, const char *tool)
    {
        auto *connectorView = child<QTableView>(editor, "connectors");
        connectorView->setFocus();
        connectorView->selectRow(editor.connectors()->rowOf(QString::fromLatin1(service)));
        auto *operationView = child<QTableView>(editor, "operations");
        operationView->selectRow(rowOfTool(editor.operations(), tool));
    }

    // Clicks Try and waits for the answer; returns the status line.
    static QString tryIt(ConnectorsEditor &editor)
    {
        QSignalSpy tried(&editor, &ConnectorsEditor::tried);
        auto *tryButton = child<QPushButton>(editor, "try");
        if (!tryButton->isEnabled())
            return QStringLiteral("(Try is disabled)");
        QTest::mouseClick(tryButton, Qt::LeftButton);
        if (!tried.wait(30000))
            return QStringLiteral("(no answer)");
        return child<QLabel>(editor, "tryStatus")->text();
    }

private slots:
    void initTestCase()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        QVERIFY(m_dir.isValid() && m_serverDir.isValid());
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral("python3"),
                       {QStringLiteral(ARIZUKO_TEST_SERVER), m_serverDir.path()});
        QVERIFY(m_server.waitForReadyRead(30000));
        const int port = m_server.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        qputenv("ARIZUKO_CONNECTOR_TEST_ORIGIN",
                QStringLiteral("https://127.0.0.1:%1").arg(port).toUtf8());
        qputenv("ARIZUKO_CONNECTOR_TEST_CA",
                m_serverDir.filePath(QStringLiteral("ca.pem")).toUtf8());

        m_store = openStore(m_dir);
        folders::Folders folders(*m_store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        QVERIFY(folders.add(QStringLiteral("corp/eng")));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("connectors")));
        writeFile(m_dir.filePath(QStringLiteral("connectors/test.toml")),
                  readFile(QStringLiteral(ARIZUKO_TEST_DEFINITIONS)));
        writeFile(m_dir.filePath(QStringLiteral("connectors/broken.toml")), brokenDefinition);
        // The parent's key: the editor and the call find it walking up.
        auto secrets = secrets::SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY(secrets);
        QVERIFY((*secrets)->set({QStringLiteral("corp")}, QStringLiteral("TESTSVC_KEY"), key));
        policy::Grant grant;
        grant.principal = QStringLiteral("corp/eng");
        grant.action = QStringLiteral("ext:testsvc:items:read");
        grant.scope = QStringLiteral("corp/eng");
        const auto added =
            policy::Policy(*m_store).grants().add(grant, QStringLiteral("user:test"));
        QVERIFY(added);
        m_grant = added->id;
    }

    void cleanupTestCase()
    {
        m_server.kill();
        m_server.waitForFinished();
    }

    void theEditorListsExplainsAndTries()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings);
        engine::Workspace workspace(*m_store);
        MainWindow window(workspace, *settings);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        // Reachable like the other editors: the Folder menu, by its shortcut.
        auto *open = window.findChild<QAction *>(QStringLiteral("openConnectors"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        QTest::keySequence(&window, open->shortcut());
        QTRY_VERIFY(window.findChild<ConnectorsEditor *>());
        ConnectorsEditor &editor = *window.findChild<ConnectorsEditor *>();
        QSignalSpy loaded(&editor, &ConnectorsEditor::loaded);
        QVERIFY(!loaded.isEmpty() || loaded.wait(15000));

        // The list: built-in and the user's, each with where it comes from.
        const models::ConnectorListModel *list = editor.connectors();
        for (const char *service : {"github", "gitlab", "testsvc", "testbasic"})
            QVERIFY2(list->rowOf(QString::fromLatin1(service)) >= 0, service);
        QCOMPARE(cell(list, list->rowOf(QStringLiteral("github")),
                      models::ConnectorListModel::SourceColumn),
                 QStringLiteral("built in"));
        QVERIFY(cell(list, list->rowOf(QStringLiteral("testsvc")),
                     models::ConnectorListModel::SourceColumn)
                    .endsWith(QStringLiteral("connectors/test.toml")));
        // The broken file is named with its line; the rest are in use.
        auto *errors = child<QLabel>(editor, "definitionErrors");
        QVERIFY(errors->isVisible());
        QVERIFY2(errors->text().contains(QStringLiteral("connectors/broken.toml:2:")),
                 qPrintable(errors->text()));
        QCOMPARE(list->rowOf(QStringLiteral("broken")), -1);

        // The folder: the agent of corp/eng sees the granted operation, by
        // that grant, and not the others; the key is found on corp.
        auto *folder = child<QComboBox>(editor, "folder");
        folder->setFocus();
        folder->setCurrentIndex(folder->findData(QStringLiteral("corp/eng")));
        QVERIFY(loaded.wait(15000));
        chooseOperation(editor, "testsvc", "testsvc_get_item");
        const models::ConnectorOperationModel *operations = editor.operations();
        const int read = rowOfTool(operations, "testsvc_get_item");
        const int write = rowOfTool(operations, "testsvc_create_item");
        QVERIFY(read >= 0 && write >= 0);
        QCOMPARE(cell(operations, read, models::ConnectorOperationModel::VisibleColumn),
                 QStringLiteral("visible"));
        QVERIFY2(
            cell(operations, read, models::ConnectorOperationModel::DecidedByColumn)
                .startsWith(
                    QStringLiteral("#%1 allow corp/eng ext:testsvc:items:read").arg(m_grant)),
            qPrintable(cell(operations, read, models::ConnectorOperationModel::DecidedByColumn)));
        QCOMPARE(cell(operations, write, models::ConnectorOperationModel::VisibleColumn),
                 QStringLiteral("hidden"));
        QCOMPARE(cell(operations, read, models::ConnectorOperationModel::ScopeColumn),
                 QStringLiteral("ext:testsvc:items:read"));
        QCOMPARE(cell(operations, read, models::ConnectorOperationModel::RequestColumn),
                 QStringLiteral("GET /items/{id}"));
        auto *secretState = child<QLabel>(editor, "secretState");
        QVERIFY2(secretState->text().contains(QStringLiteral("TESTSVC_KEY set for corp")),
                 qPrintable(secretState->text()));
        QVERIFY(!child<QPushButton>(editor, "setSecret")->isEnabled());

        // Try, typed and sent from the keyboard: the host calls the declared
        // path with the key; the window shows the status, never the key.
        auto *id = child<QLineEdit>(editor, "param-id");
        id->setFocus();
        QTest::keyClicks(id, QStringLiteral("42"));
        QSignalSpy tried(&editor, &ConnectorsEditor::tried);
        QTest::keyClick(id, Qt::Key_Return);
        QVERIFY(tried.wait(30000));
        QCOMPARE(child<QLabel>(editor, "tryStatus")->text(),
                 QStringLiteral("GET /api/items/42 \u2192 HTTP 200"));
        QCOMPARE(requests().last().value(QStringLiteral("target")).toString(),
                 QStringLiteral("/api/items/42"));
        QCOMPARE(requests()
                     .last()
                     .value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("x-api-key"))
                     .toString()
                     .toUtf8(),
                 key);
        // An answer that echoes the key comes back scrubbed.
        chooseOperation(editor, "testsvc", "testsvc_echo");
        QCOMPARE(tryIt(editor), QStringLiteral("GET /api/echo-key \u2192 HTTP 200"));
        const QString echoed = child<QPlainTextEdit>(editor, "tryOutput")->toPlainText();
        QVERIFY2(echoed.contains(QStringLiteral("[secret TESTSVC_KEY]")), qPrintable(echoed));
        for (const QString &text : visibleTexts(editor))
            QVERIFY2(!text.toUtf8().contains(key), qPrintable(text));
        // For the user guide: the reasons beside each operation, a Try's answer.
        editor.resize(1100, 860);
        screenshot(editor, QStringLiteral("connectors-editor"));
        // A write is never tried from here.
        chooseOperation(editor, "testsvc", "testsvc_create_item");
        QVERIFY(!child<QPushButton>(editor, "try")->isEnabled());
        QVERIFY(child<QLabel>(editor, "tryStatus")->text().contains(QStringLiteral("POST")));

        // A connector whose secret no folder up holds: said so, one click
        // from the secrets editor, and Try says why no call was made.
        chooseOperation(editor, "github", "github_get_issue");
        QVERIFY2(secretState->text().contains(QStringLiteral("GITHUB_TOKEN not set")),
                 qPrintable(secretState->text()));
        QVERIFY(child<QPushButton>(editor, "setSecret")->isEnabled());
        const qsizetype before = requests().size();
        for (const char *name : {"owner", "repo", "number"})
            child<QLineEdit>(editor, qPrintable(QStringLiteral("param-") + QLatin1String(name)))
                ->setText(QStringLiteral("7"));
        const QString missing = tryIt(editor);
        QVERIFY2(missing.contains(QStringLiteral("no secret GITHUB_TOKEN is set for corp/eng")),
                 qPrintable(missing));
        QCOMPARE(child<QLabel>(editor, "tryStatus")->property("error").toBool(), true);
        QCOMPARE(requests().size(), before);
        QTest::mouseClick(child<QPushButton>(editor, "setSecret"), Qt::LeftButton);
        auto *secretsEditor = window.findChild<QDialog *>(QStringLiteral("secretsEditor"));
        QVERIFY(secretsEditor);
        QCOMPARE(child<QLineEdit>(*secretsEditor, "name")->text(), QStringLiteral("GITHUB_TOKEN"));
        secretsEditor->close();

        // A revoke by arizukoctl: the open editor says the agent will not
        // see the operation any more, and which row decides now.
        const CtlResult revoked =
            arizukoctl(m_dir.path(),
                       {QStringLiteral("grant"), QStringLiteral("rm"), QString::number(m_grant)});
        QVERIFY2(revoked.exitCode == 0, revoked.err.constData());
        chooseOperation(editor, "testsvc", "testsvc_get_item");
        QTRY_COMPARE_WITH_TIMEOUT(cell(editor.operations(),
                                       rowOfTool(editor.operations(), "testsvc_get_item"),
                                       models::ConnectorOperationModel::VisibleColumn),
                                  QStringLiteral("hidden"), 15000);

        // A call that hangs runs on the engine thread: the window keeps
        // turning while it waits.
        chooseOperation(editor, "testsvc", "testsvc_slow");
        desktop::StallMeter meter;
        QTest::mouseClick(child<QPushButton>(editor, "try"), Qt::LeftButton);
        QTest::qWait(3000);
        QVERIFY(child<QLabel>(editor, "tryStatus")->text().startsWith(QStringLiteral("Calling")));
        QVERIFY2(meter.longestStallMs() < 1500,
                 qPrintable(QStringLiteral("longest stall %1 ms").arg(meter.longestStallMs())));
        qInfo("longest GUI stall during a hanging Try: %lld ms", meter.longestStallMs());
    }

    // Try by keyboard: Tab from the operation list reaches the operation's
    // fields in order, then Try; and a grant changed meanwhile (the view
    // read again) leaves what was typed, and the cursor, where they were.
    void keyboardReachesTheFieldsAndAReloadKeepsThem()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings);
        engine::Workspace workspace(*m_store);
        MainWindow window(workspace, *settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keySequence(&window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        QTRY_VERIFY(window.findChild<ConnectorsEditor *>());
        ConnectorsEditor &editor = *window.findChild<ConnectorsEditor *>();
        QSignalSpy loaded(&editor, &ConnectorsEditor::loaded);
        // Xvfb has no window manager to hand the new window the keyboard.
        editor.activateWindow();
        QTRY_COMPARE(QApplication::activeWindow(), &editor);
        QVERIFY(!loaded.isEmpty() || loaded.wait(15000));
        auto *folder = child<QComboBox>(editor, "folder");
        folder->setCurrentIndex(folder->findData(QStringLiteral("corp/eng")));
        QVERIFY(loaded.wait(15000));
        chooseOperation(editor, "testsvc", "testsvc_get_item");

        auto *operationView = child<QTableView>(editor, "operations");
        auto *id = child<QLineEdit>(editor, "param-id");
        auto *query = child<QLineEdit>(editor, "param-q");
        auto *tryButton = child<QPushButton>(editor, "try");
        // The fields are shown once the event loop turns, as for a person.
        QTRY_VERIFY(id->isVisible());
        operationView->setFocus();
        QTest::keyClick(operationView, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), id);
        QTest::keyClicks(id, QStringLiteral("42"));
        QTest::keyClick(id, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), query);
        QTest::keyClicks(query, QStringLiteral("open"));
        QTest::keyClick(query, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), tryButton);
        QTest::keyClick(tryButton, Qt::Key_Tab, Qt::ShiftModifier);
        QCOMPARE(QApplication::focusWidget(), query);
        QTest::keyClick(query, Qt::Key_End); // Tab selected the text; go on after it

        // A grant added by arizukoctl: the view is read again (another
        // operation turns visible) while the person is in the query field.
        const int huge = rowOfTool(editor.operations(), "testsvc_huge");
        QCOMPARE(cell(editor.operations(), huge, models::ConnectorOperationModel::VisibleColumn),
                 QStringLiteral("hidden"));
        const CtlResult added =
            arizukoctl(m_dir.path(),
                       {QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                        QStringLiteral("ext:testsvc:misc:huge"), QStringLiteral("corp/eng")});
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(cell(editor.operations(),
                                       rowOfTool(editor.operations(), "testsvc_huge"),
                                       models::ConnectorOperationModel::VisibleColumn),
                                  QStringLiteral("visible"), 15000);
        QCOMPARE(operationView->currentIndex().data(models::ConnectorOperationModel::ToolRole),
                 QVariant(QStringLiteral("testsvc_get_item")));
        QCOMPARE(child<QLineEdit>(editor, "param-id")->text(), QStringLiteral("42"));
        QCOMPARE(child<QLineEdit>(editor, "param-q")->text(), QStringLiteral("open"));
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(editor, "param-q"));
        // And the typing goes on where it was.
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("ed"));
        QCOMPARE(child<QLineEdit>(editor, "param-q")->text(), QStringLiteral("opened"));
    }

    // The engine's own call of a connector, as a turn makes it, with the
    // agent's events around it: the window's transcript shows the call
    // folded like any tool call, with the host's method, path and status.
    void theTranscriptShowsAConnectorCall()
    {
        auto settings = turns::RunnerSettings::fromEnvironment();
        QVERIFY(settings);
        policy::Grant grant;
        grant.principal = QStringLiteral("corp/eng");
        grant.action = QStringLiteral("ext:testsvc:misc:echo");
        grant.scope = QStringLiteral("corp/eng");
        QVERIFY(policy::Policy(*m_store).grants().add(grant, QStringLiteral("user:test")));

        turns::TurnRecord turn;
        turn.id = QStringLiteral("0c0ec700-0000-0000-0000-000000000000");
        turn.name = QStringLiteral("az-0c0ec700");
        turn.folder = QStringLiteral("corp/eng");
        turn.topic = QStringLiteral("main");
        turn.agent = QStringLiteral("claude");
        turn.prompt = QStringLiteral("read the service");
        turn.state = turns::TurnState::Done;
        turn.queuedAt = turn.endedAt = store::nowTimestamp();
        QVERIFY(turns::TurnRecords(*m_store).insert(turn));

        tools::TurnTools tools(
            *m_store, tools::TurnBinding{turn.id, turn.folder, turn.topic, 0, 3},
            [](const tools::TurnOrder &) -> Result<QString> { return QStringLiteral("az-none"); });
        QSignalSpy called(&tools, &tools::TurnTools::connectorCalled);
        std::optional<tools::ToolOutcome> outcome;
        tools.call(QStringLiteral("testsvc_echo"), {},
                   [&outcome](const tools::ToolOutcome &done) { outcome = done; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 30000);
        QVERIFY2(!outcome->isError, qPrintable(outcome->text));
        QCOMPARE(called.size(), 1);
        const QJsonObject call = called.first().first().toJsonObject();
        QVERIFY(!QJsonDocument(call).toJson().contains(key));

        // The agent's call and its result, as Claude Code prints them.
        const QJsonObject toolUse{
            {QStringLiteral("type"), QStringLiteral("assistant")},
            {QStringLiteral("message"),
             QJsonObject{
                 {QStringLiteral("id"), QStringLiteral("msg_1")},
                 {QStringLiteral("content"),
                  QJsonArray{QJsonObject{
                      {QStringLiteral("type"), QStringLiteral("tool_use")},
                      {QStringLiteral("id"), QStringLiteral("toolu_1")},
                      {QStringLiteral("name"), QStringLiteral("mcp__arizuko__testsvc_echo")},
                      {QStringLiteral("input"), QJsonObject{}}}}}}}};
        const QJsonObject toolResult{
            {QStringLiteral("type"), QStringLiteral("user")},
            {QStringLiteral("message"),
             QJsonObject{
                 {QStringLiteral("content"),
                  QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_result")},
                                         {QStringLiteral("tool_use_id"), QStringLiteral("toolu_1")},
                                         {QStringLiteral("content"), outcome->text},
                                         {QStringLiteral("is_error"), false}}}}}}};
        QList<turns::TurnEventRecord> events;
        qint64 seq = 1;
        const auto append = [&](const QJsonObject &line) {
            for (const agent::AgentEvent &event : agent::agentEventsFromLine(
                     QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact))))
                events.append({turn.id, seq++, event.kind, event.json, store::nowTimestamp()});
        };
        append(toolUse);
        events.append({turn.id, seq++, QStringLiteral("connector"), call, store::nowTimestamp()});
        append(toolResult);
        QVERIFY(turns::TurnRecords(*m_store).appendEvents(events));

        engine::Workspace workspace(*m_store);

        MainWindow window(workspace, *settings);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.transcript()->showTopic(turn.folder, turn.topic);
        QWebEnginePage *page = window.transcript()->page();
        QVERIFY(waitForScript(page,
                              QStringLiteral("document.querySelector('details.tool') "
                                             "!== null"),
                              30000));
        QCOMPARE(
            runJavaScript(page, QStringLiteral("document.querySelector('details.tool > summary > "
                                               "span.connector').textContent"))
                .toString()
                .section(QStringLiteral(" \u00b7 "), 0, 0),
            QStringLiteral("GET /api/echo-key \u2192 HTTP 200"));
        QVERIFY(runJavaScript(page, QStringLiteral("document.querySelector('details.tool > "
                                                   "summary').textContent.includes("
                                                   "'mcp__arizuko__testsvc_echo')"))
                    .toBool());
        // One folded call, not a second line beside it.
        QCOMPARE(runJavaScript(page, QStringLiteral("String(document.querySelectorAll("
                                                    "'.connector').length)"))
                     .toString(),
                 QStringLiteral("1"));
        const QString pageText =
            runJavaScript(page, QStringLiteral("document.body.textContent")).toString();
        QVERIFY(pageText.contains(QStringLiteral("[secret TESTSVC_KEY]")));
        QVERIFY2(!pageText.toUtf8().contains(key), qPrintable(pageText));
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("arizuko-tests"));
    ConnectorsWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_connectors_window.moc"
