// End to end through the real window under Xvfb: a real turn in a real VM
// (TCG here) with the real Claude Code binary driven by the scripted demo
// model. Selects the topic, types a prompt, sees the events arrive in
// order in the transcript, sees the denied host in the network tab, allows
// it with one click (and a confirmation that names the rule and folder),
// and finds the rule in the store. Screenshots of the live window go to
// docs/screenshots/. Reports the GUI thread's longest stall during the turn.
// And the first-run guide's demo turn, in a folder it creates.

#include "composer.h"
#include "engine/engine.h"
#include "engine/workspace.h"
#include "first_run_guide.h"
#include "folder_tree_panel.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "main_window.h"
#include "models/network_decision_model.h"
#include "policy/policy.h"
#include "stall_meter.h"
#include "store/store.h"
#include "test_window_turn_support.h"
#include "transcript_page.h"
#include "transcript_view.h"
#include "turn_changes_reader.h"
#include "turn_panel.h"
#include "turn_records/turn_record.h"
#include "turns/runner_settings.h"
#include "web_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <algorithm>

using namespace arizuko;
using desktop::MainWindow;

namespace {

const QString deniedHost = QStringLiteral("not-on-the-allowlist.example");

// The window, and a dialog over it where one is open (a dialog is a window
// of its own, which grabbing the main window leaves out).
void screenshot(QWidget *window, const QString &name, QWidget *dialog = nullptr)
{
    QDir().mkpath(QStringLiteral(SCREENSHOT_DIR));
    const QString path = QDir(QStringLiteral(SCREENSHOT_DIR)).filePath(name);
    QPixmap picture = window->grab();
    if (dialog) {
        QPainter painter(&picture);
        const QPixmap over = dialog->grab();
        painter.drawPixmap((picture.width() - over.width()) / 2,
                           (picture.height() - over.height()) / 3, over);
    }
    QVERIFY2(picture.save(path), qPrintable(path));
    qInfo("screenshot %s", qPrintable(path));
}

} // namespace

class WindowTurnTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto settings = windowTurnSettings();
        QVERIFY(settings);
        m_settings = *settings;
    }

    void aTurnLiveInTheWindow()
    {
        QTemporaryDir directory;
        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        QVERIFY(folders::Folders(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        QVERIFY(folders::Topics(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"), QStringLiteral("demo"))
                    .ok());
        // A rule of the folder's own (the confirmation below counts it). The
        // demo fetches the engine's demo page, which its proxy alone may
        // reach, and a host the folder does not allow.
        policy::Policy policy(**store);
        QVERIFY(policy.network().add(QStringLiteral("corp"), QStringLiteral("localhost"),
                                     policy::RuleKind::Allow, QStringLiteral("user:test")).ok());

        std::optional<turns::RunnerSettings> settings = m_settings;
        settings->egressProgram = QStringLiteral(EGRESS_PROGRAM);
        settings->modelProvider = turns::ModelProviderChoice::Demo;
        settings->accelerator = libvirt::AcceleratorSetting::Tcg;

        arizuko::engine::Workspace workspace(**store);

        MainWindow window(workspace, *settings);
        window.resize(1500, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        engine::Engine *engine = window.engine();
        // Ready may come while the window is being exposed.
        QVERIFY(engineIsReady(window));

        // Select the topic from the keyboard: the tree, then down to it.
        desktop::FolderTreePanel *tree = window.folderTree();
        QVERIFY(tree->select(QStringLiteral("corp")));
        tree->view()->setFocus();
        QTest::keyClick(tree->view(), Qt::Key_Right);
        QTest::keyClick(tree->view(), Qt::Key_Down);
        QCOMPARE(tree->currentTopic(), QStringLiteral("demo"));

        QList<turns::TurnEventRecord> events;
        QList<turns::TurnState> phases;
        connect(engine, &engine::Engine::turnEvents, this,
                [&events](const QString &, const QList<turns::TurnEventRecord> &batch) {
                    events << batch;
                });
        connect(engine, &engine::Engine::turnPhaseChanged, this,
                [&phases](const turns::TurnRecord &turn) { phases << turn.state; });
        QSignalSpy finished(engine, &engine::Engine::turnFinished);

        QPlainTextEdit *editor = window.composer()->editor();
        editor->setFocus();
        QTest::keyClicks(editor, QStringLiteral("Show me what you can do."));
        desktop::StallMeter meter;
        QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(editor->toPlainText(), QString());
        // The runner answers from its own thread.
        QTRY_COMPARE(engine->liveTurns().size(), 1);

        // The denied host shows in the network tab while the turn runs.
        desktop::TurnPanel *panel = window.turnPanel();
        models::NetworkDecisionModel *network = panel->networkModel();
        const auto deniedRow = [network] {
            for (int row = 0; row < network->rowCount(); ++row) {
                if (network->index(row, 0)
                        .data(models::NetworkDecisionModel::HostRole)
                        .toString() == deniedHost)
                    return row;
            }
            return -1;
        };
        // Waited for without sleeping the thread the meter measures.
        desktop::turnEventLoop(240000, [&] { return deniedRow() >= 0 || !finished.isEmpty(); });
        if (deniedRow() < 0) {
            QStringList seen;
            for (const turns::TurnEventRecord &event : events)
                seen << event.kind + QLatin1Char(' ') +
                            QString::fromUtf8(
                                QJsonDocument(event.json).toJson(QJsonDocument::Compact))
                                .left(200);
            qWarning("events: %s", qPrintable(seen.join(QLatin1Char('\n'))));
            QFAIL("the turn ended without a denied host in the network tab");
        }
        // Grabbing the window blocks the GUI thread itself: the stall is
        // measured around the screenshots, not across them.
        qint64 stall = meter.longestStallMs();
        QList<desktop::StallMeter::Stall> stalls = meter.stalls();
        QTest::qWait(500); // the transcript draws the denial first
        screenshot(&window, QStringLiteral("window-live-turn.png"));
        panel->tabs()->setCurrentIndex(1);
        QTest::qWait(300);
        screenshot(&window, QStringLiteral("window-network-tab.png"));
        meter.reset();

        QVERIFY(!finished.isEmpty() || finished.wait(400000));
        stall = std::max(stall, meter.longestStallMs());
        stalls << meter.stalls();
        qint64 stalledMs = 0;
        qint64 onCpuMs = 0;
        qint64 waitingMs = 0;
        for (const desktop::StallMeter::Stall &each : stalls) {
            stalledMs += each.ms;
            onCpuMs += each.onCpuMs;
            waitingMs += each.waitingForCpuMs;
        }
        qInfo("the GUI thread's longest stall during the turn: %lld ms; %lld stalls over 16 ms, "
              "%lld ms in them: %lld ms on a CPU, %lld ms waiting for one",
              stall, qint64(stalls.size()), stalledMs, onCpuMs, waitingMs);
        for (const desktop::StallMeter::Stall &each : stalls)
            qInfo("  stall of %lld ms (%lld ms on a CPU, %lld ms waiting for one) ending at %s",
                  each.ms, each.onCpuMs, each.waitingForCpuMs,
                  qPrintable(each.endedAt.toString(Qt::ISODateWithMs)));

        // Phases and events in order.
        QCOMPARE(phases,
                 (QList<turns::TurnState>{turns::TurnState::Preparing, turns::TurnState::Booting,
                                          turns::TurnState::Running, turns::TurnState::Finishing,
                                          turns::TurnState::Done}));
        for (qsizetype i = 1; i < events.size(); ++i)
            QCOMPARE(events[i].seq, events[i - 1].seq + 1);
        QStringList kinds;
        for (const turns::TurnEventRecord &event : events) {
            if (kinds.isEmpty() || kinds.last() != event.kind)
                kinds << event.kind;
        }
        for (const turns::TurnEventRecord &event : events) {
            if (event.kind == QLatin1String("phase") || event.kind == QLatin1String("timing"))
                qInfo("  %s %s %s", qPrintable(event.at), qPrintable(event.kind),
                      qPrintable(QString::fromUtf8(
                          QJsonDocument(event.json).toJson(QJsonDocument::Compact))));
        }
        // Each kind is found before its order is compared: a missing one is -1.
        const qsizetype init = kinds.indexOf(QStringLiteral("init"));
        const qsizetype firstToolUse = kinds.indexOf(QStringLiteral("tool_use"));
        const qsizetype lastToolResult = kinds.lastIndexOf(QStringLiteral("tool_result"));
        const qsizetype result = kinds.lastIndexOf(QStringLiteral("result"));
        QVERIFY2(init >= 0 && firstToolUse >= 0 && lastToolResult >= 0 && result >= 0,
                 qPrintable(kinds.join(u' ')));
        QVERIFY(init < firstToolUse);
        QVERIFY(lastToolResult < result);

        // The transcript shows them, in the same order, tool calls folded.
        QWebEnginePage *page = window.transcript()->page();
        QVERIFY(waitForScript(page, QStringLiteral("document.querySelector('.footer') !== null"),
                              30000));
        QVERIFY(runJavaScript(
                    page, QStringLiteral("document.querySelectorAll('details.tool').length >= 4"))
                    .toBool());
        const QVariantList seqs =
            runJavaScript(page, QStringLiteral("Array.from(document.querySelectorAll('section.turn "
                                               "> *')).map(e => Number(e.dataset.seq))"))
                .toList();
        for (qsizetype i = 1; i < seqs.size(); ++i)
            QVERIFY(seqs[i].toLongLong() > seqs[i - 1].toLongLong());
        QVERIFY(runJavaScript(page, QStringLiteral(
            "document.getElementById('turns').textContent.includes('403 Forbidden')")).toBool());
        panel->tabs()->setCurrentIndex(0);
        QTest::qWait(300);
        screenshot(&window, QStringLiteral("window-turn-done.png"));

        // One click on the denied row's button; the confirmation names the
        // exact rule and the folder before anything is written.
        panel->tabs()->setCurrentIndex(1);
        const int row = deniedRow();
        panel->networkTable()->selectRow(row);
        QVERIFY(panel->allowButton()->isEnabled());
        QTest::mouseClick(panel->allowButton(), Qt::LeftButton);
        QMessageBox *confirmation = nullptr;
        QTRY_VERIFY((confirmation =
                         window.findChild<QMessageBox *>(QStringLiteral("allowRuleConfirmation"))));
        QVERIFY2(confirmation->text().contains(QStringLiteral("allow %1").arg(deniedHost)),
                 qPrintable(confirmation->text()));
        QVERIFY(confirmation->text().contains(QStringLiteral("\"corp\"")));
        QVERIFY(!policy.network().list(QStringLiteral("corp"))->isEmpty());
        QCOMPARE(policy.network().list(QStringLiteral("corp"))->size(), 1); // nothing written yet
        QTest::qWait(300);
        screenshot(&window, QStringLiteral("window-allow-confirmation.png"), confirmation);
        QSignalSpy added(panel, &desktop::TurnPanel::ruleAdded);
        confirmation->button(QMessageBox::Yes)->click();
        QVERIFY(added.count() == 1 || added.wait(5000));

        const auto rules = policy.network().list(QStringLiteral("corp"));
        QVERIFY(rules.ok());
        bool found = false;
        for (const policy::NetworkRule &rule : *rules)
            found = found || (rule.target == deniedHost && rule.kind == policy::RuleKind::Allow &&
                              rule.createdBy == QLatin1String("user:gui"));
        QVERIFY2(found, "the allow rule is not in the store");
        const auto verdict = policy.network().test(QStringLiteral("corp"), deniedHost);
        QVERIFY(verdict.ok() && verdict->allowed);

        // Measured, not assumed: the window stayed responsive.
        QVERIFY2(stall <= maxStallMs, qPrintable(QStringLiteral("longest stall %1 ms").arg(stall)));
    }

    // The first-run guide's demo turn: a new folder and topic, the built-in
    // demo model although the provider is auto and no key is set, and the
    // turn shown in the window's transcript.
    void theFirstRunDemoTurnRunsInTheWindow()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        QTemporaryDir directory;
        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        turns::RunnerSettings settings = m_settings;
        settings.egressProgram = QStringLiteral(EGRESS_PROGRAM);
        settings.modelProvider = turns::ModelProviderChoice::Auto;
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        arizuko::engine::Workspace workspace(**store);
        MainWindow window(workspace, settings);
        QVERIFY(readyToRun(window));
        engine::Engine *engine = window.engine();

        window.showFirstRunGuide();
        auto *guide = window.findChild<desktop::FirstRunGuide *>(QStringLiteral("firstRunGuide"));
        QVERIFY(guide);
        auto *runDemo = guide->findChild<QPushButton *>(QStringLiteral("runDemo"));
        // Enabled once the guide found libvirt and the image.
        QTRY_VERIFY_WITH_TIMEOUT(runDemo->isEnabled(), 120000);
        QSignalSpy queued(engine, &engine::Engine::turnQueued);
        QSignalSpy finished(engine, &engine::Engine::turnFinished);
        runDemo->click();
        // Selected once the tree, read on a worker, holds the new folder.
        QTRY_COMPARE(window.folderTree()->currentFolder(), QStringLiteral("demo"));
        QCOMPARE(window.folderTree()->currentTopic(), turns::demoTopic);
        QVERIFY(!queued.isEmpty() || queued.wait(30000));
        QCOMPARE(queued.size(), 1);
        const auto submitted = queued.first().first().value<turns::TurnRecord>();
        QCOMPARE(submitted.folder, QStringLiteral("demo"));
        QVERIFY(!finished.isEmpty() || finished.wait(400000));
        const auto record = finished.first().first().value<turns::TurnRecord>();
        QCOMPARE(record.id, submitted.id);
        QCOMPARE(record.state, turns::TurnState::Done);
        QWebEnginePage *page = window.transcript()->page();
        QVERIFY(waitForScript(page, QStringLiteral("document.querySelector('.footer') !== null"),
                              30000));
        QVERIFY(runJavaScript(
                    page, QStringLiteral("document.querySelectorAll('details.tool').length >= 1"))
                    .toBool());
    }

    // A command turn in a real guest creates, modifies and deletes files in
    // the home: when it ends, the transcript's Changes block lists exactly
    // those, each opening to its exact diff (the home's history's), with
    // highlight classes; the same block comes back when the topic is
    // opened again from the store.
    void aTurnsChangesShowInTheTranscript()
    {
        QTemporaryDir directory;
        auto store = store::Store::open(directory.filePath(QStringLiteral("data")));
        QVERIFY(store.ok());
        folders::Folders folders(**store, QStringLiteral("user:test"));
        QVERIFY(folders.add(QStringLiteral("corp")).ok());
        QVERIFY(folders::Topics(**store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"), QStringLiteral("files"))
                    .ok());
        const auto home = folders.home(QStringLiteral("corp"));
        QVERIFY(home.ok());
        const auto write = [&home](const QString &name, const QByteArray &data) {
            QFile file(QDir(home->path).filePath(name));
            return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
        };
        QVERIFY(write(QStringLiteral("edit.py"), "def f():\n    return 'two'\n"));
        QVERIFY(write(QStringLiteral("gone.txt"), "bye\n"));

        turns::RunnerSettings settings = m_settings;
        settings.egressProgram = QStringLiteral(EGRESS_PROGRAM);
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        arizuko::engine::Workspace workspace(**store);
        MainWindow window(workspace, settings);
        QVERIFY(readyToRun(window));
        engine::Engine *engine = window.engine();
        QTRY_VERIFY(window.folderTree()->select(QStringLiteral("corp"), QStringLiteral("files")));
        QTRY_COMPARE(window.transcript()->topic(), QStringLiteral("files"));

        QSignalSpy finished(engine, &engine::Engine::turnFinished);
        turns::TurnRequest request;
        request.folder = QStringLiteral("corp");
        request.topic = QStringLiteral("files");
        request.agent = turns::AgentKind::Command;
        request.prompt = QStringLiteral(
            "cd \"$HOME\" && printf 'def f():\\n    return 2\\n' > edit.py && rm gone.txt && "
            "printf '<b>new</b>\\n' > new.html");
        engine->submit(request);
        QVERIFY(finished.wait(400000));
        const auto ended = finished.first().first().value<turns::TurnRecord>();
        QCOMPARE(ended.state, turns::TurnState::Done);

        const QString files = QStringLiteral(
            "Array.from(document.querySelectorAll('.changes details.change')).map(d => "
            "d.dataset.kind + ' ' + d.dataset.path).sort().join(',')");
        const QString expected = QStringLiteral("added new.html,deleted gone.txt,modified edit.py");
        QWebEnginePage *page = window.transcript()->page();
        QVERIFY2(waitForScript(page, files + QStringLiteral(" === '%1'").arg(expected), 60000),
                 qPrintable(runJavaScript(page, files).toString()));
        // Each diff, opened, is the history's own, line for line.
        const auto saved = turns::RunnerSettings::load(**store);
        QVERIFY(saved.ok());
        const auto changes =
            history::turnChanges(**store, ended, history::snapshotOptions(*saved), true);
        QVERIFY2(changes.ok(), qPrintable(changes.ok() ? QString() : changes.error().message));
        QCOMPARE(changes->files.size(), 3);
        for (const history::FileChange &change : changes->files) {
            const QString diff =
                QStringLiteral(
                    "(() => { const d = Array.from(document.querySelectorAll('.changes "
                    "details.change')).find(d => d.dataset.path === '%1'); d.open = true; "
                    "return d.querySelector('pre.diff').textContent; })()")
                    .arg(change.path);
            QVERIFY(waitForScript(page, diff + QStringLiteral(".length > 0")));
            QString shown = runJavaScript(page, diff).toString();
            QString recorded = change.diff;
            if (recorded.endsWith(QLatin1Char('\n')))
                recorded.chop(1);
            QCOMPARE(shown, recorded);
        }
        // The edit is the command's, exactly.
        const auto edited = std::find_if(
            changes->files.cbegin(), changes->files.cend(),
            [](const history::FileChange &change) { return change.path == u"edit.py"; });
        QVERIFY(edited != changes->files.cend());
        QVERIFY2(edited->diff.endsWith(QStringLiteral(
                     "@@ -1,2 +1,2 @@\n def f():\n-    return 'two'\n+    return 2\n")),
                 qPrintable(edited->diff));
        // Highlighted by the file's language, lines marked as diff lines.
        QVERIFY(
            runJavaScript(
                page,
                QStringLiteral(
                    "document.querySelectorAll('.changes pre.diff .hljs-deletion').length > 0 && "
                    "document.querySelectorAll('.changes pre.diff .hljs-addition').length > 0 && "
                    "document.querySelectorAll('.changes pre.diff .hljs-keyword').length > 0"))
                .toBool());
        QTest::qWait(300);
        screenshot(&window, QStringLiteral("window-turn-changes.png"));

        // Opened again from the store, the turn has its block again.
        window.transcript()->showTopic(QStringLiteral("corp"), QStringLiteral("main"));
        window.transcript()->showTopic(QStringLiteral("corp"), QStringLiteral("files"));
        QVERIFY(waitForScript(page, files + QStringLiteral(" === '%1'").arg(expected), 60000));
    }

private:
    turns::RunnerSettings m_settings;
    // The target is 16 ms; under Xvfb with software rendering of the
    // web page on two shared cores the bound the test holds is looser, and
    // the measured value is reported either way.
    static constexpr qint64 maxStallMs = 250;
};

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("arizuko-tests"));
    WindowTurnTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_window_turn.moc"
