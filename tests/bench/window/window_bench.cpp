// Window benchmark: the GUI thread's longest stall in the real window
// (MainWindow: its tree, transcript page, turn panel and store watcher),
// (a) while a long turn streams into it and (b) while its tree holds 1,000
// folders, and (c) while the egress ledger's view pages and filters a
// ledger of 1,000,000 rows. The target is 16 ms, one frame.
//
// The turn in (a) is not a VM's: the benchmark writes its row and events to
// the store on a worker, as the engine thread does, then emits the engine's
// own signals (engine::Engine::turnEvents, turnPhaseChanged, turnFinished)
// into the window, the path a real turn's reports take; the store's watcher
// sees the writes as it sees a real turn's. A real turn in a VM is measured
// by app.window_turn (`tests/bench/transcript/run --window-turn N`).

#include "engine/engine.h"
#include "engine/workspace.h"
#include "folder_tree_panel.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "ledger_viewer.h"
#include "main_window.h"
#include "models/ledger_model.h"
#include "stall_meter.h"
#include "store/store.h"
#include "store/store_work.h"
#include "store/timestamp.h"
#include "synthetic_events.h"
#include "transcript_bridge.h"
#include "transcript_view.h"
#include "turn_panel.h"
#include "turn_records/turn_records.h"
#include "turns/runner_settings.h"

#include <QApplication>
#include <QComboBox>
#include <QFutureWatcher>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUuid>
#include <QWindow>
#include <QtConcurrent/QtConcurrentRun>
#include <cstdio>
#include <memory>

using namespace arizuko;

namespace {

// What a long turn may store (turns::maxGuestOutputRows), stored before
// the window opens it.
constexpr int storedEvents = 50000;
// A busy turn's pace: a batch of four every 25 ms, for 7.5 s.
constexpr int streamedEvents = 1200;
constexpr int batchSize = 4;
constexpr int batchIntervalMs = 25;
// The tree: 100 folders with 9 subfolders each, a topic in each.
constexpr int teams = 100;
constexpr int projectsPerTeam = 9;
// The ledger: 1,000 turns of 1,000 requests in 10 folders, over 10 days.
constexpr int ledgerRows = 1000000;

qint64 g_worst = 0;

// Prints the stalls since the meter's last reset under `step`, and resets it.
void report(desktop::StallMeter &meter, const char *step)
{
    qint64 stalledMs = 0;
    qint64 onCpuMs = 0;
    qint64 waitingMs = 0;
    for (const desktop::StallMeter::Stall &stall : meter.stalls()) {
        stalledMs += stall.ms;
        onCpuMs += stall.onCpuMs;
        waitingMs += stall.waitingForCpuMs;
    }
    std::printf("  %-46s longest stall %4lld ms; %3lld over 16 ms, %5lld ms in them "
                "(%lld on a CPU, %lld waiting for one)\n",
                step, meter.longestStallMs(), qint64(meter.stalls().size()), stalledMs, onCpuMs,
                waitingMs);
    std::fflush(stdout);
    g_worst = std::max(g_worst, meter.longestStallMs());
    meter.reset();
}

// Runs `write` on a worker, as the engine thread writes, and waits for it
// with the event loop turning.
bool writeOnWorker(store::Store &store, std::function<bool(store::Store &)> write)
{
    QFutureWatcher<bool> watcher;
    QSignalSpy finished(&watcher, &QFutureWatcher<bool>::finished);
    watcher.setFuture(QtConcurrent::run([hold = store::StoreWork(store), write = std::move(write)] {
        return write(hold.store());
    }));
    return (finished.count() > 0 || finished.wait(60000)) && watcher.result();
}

turns::TurnEventRecord phaseEvent(const QString &turn, qint64 seq, turns::TurnState state)
{
    return {turn, seq, QStringLiteral("phase"),
            QJsonObject{{QStringLiteral("state"), turns::turnStateName(state)}},
            store::nowTimestamp()};
}

std::unique_ptr<desktop::MainWindow> openWindow(engine::Workspace &workspace,
                                                const turns::RunnerSettings &settings)
{
    auto window = std::make_unique<desktop::MainWindow>(workspace, settings);
    QSignalSpy pageReady(window->transcript()->bridge(), &desktop::TranscriptBridge::ready);
    window->resize(1500, 900);
    window->show();
    const bool exposed = desktop::turnEventLoop(
        30000, [&] { return window->windowHandle() && window->windowHandle()->isExposed(); });
    if (!exposed || (pageReady.isEmpty() && !pageReady.wait(30000)))
        std::printf("the window did not show, or its transcript page never loaded\n");
    return window;
}

// (a) A topic whose running turn has stored 50,000 events, opened, then
// 1,200 more streamed in, the person switching topics meanwhile, then the
// turn's end.
int longTurn(const turns::RunnerSettings &settings)
{
    std::printf("(a) a long turn streaming into the window\n");
    QTemporaryDir directory;
    auto opened = store::Store::open(directory.filePath(QStringLiteral("data")));
    if (!opened)
        return 2;
    store::Store &store = **opened;
    const QString actor = QStringLiteral("user:bench");
    if (!folders::Folders(store, actor).add(QStringLiteral("bench")) ||
        !folders::Topics(store, actor).add(QStringLiteral("bench"), QStringLiteral("main")) ||
        !folders::Topics(store, actor).add(QStringLiteral("bench"), QStringLiteral("other")))
        return 2;
    turns::TurnRecord turn = desktop::syntheticTurn(QStringLiteral("bench"), QStringLiteral("main"),
                                                    turns::TurnState::Running);
    turns::TurnRecords records(store);
    if (!records.insert(turn))
        return 2;
    for (int from = 0; from < storedEvents; from += 5000) {
        if (!records.appendEvents(desktop::syntheticEvents(turn.id, 5000, from + 1)))
            return 2;
    }

    engine::Workspace workspace(store);
    auto window = openWindow(workspace, settings);
    desktop::turnEventLoop(1000);
    desktop::StallMeter meter;
    desktop::turnEventLoop(500);
    report(meter, "idle, before anything (the floor)");

    desktop::FolderTreePanel *tree = window->folderTree();
    tree->select(QStringLiteral("bench"), QStringLiteral("main"));
    desktop::turnEventLoop(1500);
    report(meter, "open the topic of a 50,000-event turn");

    engine::Engine *windowEngine = window->engine();
    qint64 seq = storedEvents + 1;
    for (int batch = 0; batch < streamedEvents / batchSize; ++batch) {
        QElapsedTimer clock;
        clock.start();
        const QList<turns::TurnEventRecord> events =
            desktop::syntheticEvents(turn.id, batchSize, seq);
        seq += batchSize;
        if (!writeOnWorker(store, [events](store::Store &on) {
                return bool(turns::TurnRecords(on).appendEvents(events));
            }))
            return 2;
        emit windowEngine->turnEvents(turn.id, events);
        // Now and then the person looks at another topic and back.
        if (batch % 100 == 50)
            tree->select(QStringLiteral("bench"), QStringLiteral("other"));
        if (batch % 100 == 60)
            tree->select(QStringLiteral("bench"), QStringLiteral("main"));
        desktop::turnEventLoop(int(std::max<qint64>(1, batchIntervalMs - clock.elapsed())));
    }
    desktop::turnEventLoop(500);
    report(meter, "stream 1,200 events, switching topics twice");

    for (const turns::TurnState state : {turns::TurnState::Finishing, turns::TurnState::Done}) {
        const turns::TurnEventRecord phase = phaseEvent(turn.id, seq++, state);
        const QString at = store::nowTimestamp();
        if (!writeOnWorker(store, [id = turn.id, state, at, phase](store::Store &on) {
                turns::TurnRecords written(on);
                return written.setState(id, state, at) && written.appendEvent(phase);
            }))
            return 2;
        turn.state = state;
        (state == turns::TurnState::Done ? turn.endedAt : turn.finishingAt) = at;
        emit windowEngine->turnEvents(turn.id, {phase});
        emit windowEngine->turnPhaseChanged(turn);
        desktop::turnEventLoop(300);
    }
    emit windowEngine->turnFinished(turn);
    desktop::turnEventLoop(1000);
    report(meter, "the turn finishes and ends");
    return 0;
}

// (b) A tree of 1,000 folders, each with a topic, a few of them busy:
// open the window, expand and collapse it, select folders and topics, and
// let another process (arizukoctl) and this one's turns change it.
int bigTree(const turns::RunnerSettings &settings)
{
    std::printf("(b) a tree of 1,000 folders\n");
    QTemporaryDir directory;
    const QString dataDir = directory.filePath(QStringLiteral("data"));
    auto opened = store::Store::open(dataDir);
    if (!opened)
        return 2;
    store::Store &store = **opened;
    const QString actor = QStringLiteral("user:bench");
    folders::Folders folders(store, actor);
    folders::Topics topics(store, actor);
    // Only while the benchmark builds the tree: a commit need not reach the disk.
    QSqlQuery(store.database()).exec(QStringLiteral("PRAGMA synchronous = OFF"));
    for (int team = 0; team < teams; ++team) {
        const QString teamPath = QStringLiteral("team-%1").arg(team);
        if (!folders.add(teamPath) || !topics.add(teamPath, QStringLiteral("main")))
            return 2;
        for (int project = 0; project < projectsPerTeam; ++project) {
            const QString path = teamPath + QStringLiteral("/project-%1").arg(project);
            if (!folders.add(path) || !topics.add(path, QStringLiteral("main")))
                return 2;
        }
    }
    turns::TurnRecords records(store);
    for (int team = 0; team < teams; team += 20) {
        if (!records.insert(desktop::syntheticTurn(QStringLiteral("team-%1/project-1").arg(team),
                                                   QStringLiteral("main"),
                                                   turns::TurnState::Running)))
            return 2;
    }
    QSqlQuery(store.database()).exec(QStringLiteral("PRAGMA synchronous = FULL"));

    desktop::StallMeter meter;
    desktop::turnEventLoop(500);
    report(meter, "idle, before the window (the floor)");
    engine::Workspace workspace(store);
    auto window = openWindow(workspace, settings);
    desktop::turnEventLoop(1000);
    report(meter, "open the window");

    desktop::FolderTreePanel *tree = window->folderTree();
    for (int round = 0; round < 3; ++round) {
        tree->view()->collapseAll();
        desktop::turnEventLoop(200);
        tree->view()->expandAll();
        desktop::turnEventLoop(200);
    }
    report(meter, "collapse and expand all, three times");

    for (int step = 0; step < 40; ++step) {
        const QString folder = QStringLiteral("team-%1/project-%2")
                                   .arg((step * 37) % teams)
                                   .arg(step % projectsPerTeam);
        tree->select(folder, step % 2 ? QStringLiteral("main") : QString());
        desktop::turnEventLoop(100);
    }
    report(meter, "select 40 folders and topics");

    for (int step = 0; step < 3; ++step) {
        // Waited for with the event loop turning: the window's thread
        // does not wait on it.
        QProcess arizukoctl;
        arizukoctl.setStandardOutputFile(QProcess::nullDevice());
        arizukoctl.start(QStringLiteral(ARIZUKOCTL),
                         {QStringLiteral("--data-dir"), dataDir, QStringLiteral("folder"),
                          QStringLiteral("add"), QStringLiteral("team-7/added-%1").arg(step)});
        if (!desktop::turnEventLoop(30000,
                                    [&] { return arizukoctl.state() == QProcess::NotRunning; }) ||
            arizukoctl.exitCode() != 0)
            return 2;
        desktop::turnEventLoop(800);
    }
    report(meter, "another process adds 3 folders");

    engine::Engine *windowEngine = window->engine();
    for (int step = 0; step < 3; ++step) {
        turns::TurnRecord turn =
            desktop::syntheticTurn(QStringLiteral("team-%1").arg(step * 30), QStringLiteral("main"),
                                   turns::TurnState::Queued);
        if (!writeOnWorker(store, [turn](store::Store &on) {
                return bool(turns::TurnRecords(on).insert(turn));
            }))
            return 2;
        emit windowEngine->turnQueued(turn);
        desktop::turnEventLoop(400);
        const QString at = store::nowTimestamp();
        if (!writeOnWorker(store, [id = turn.id, at](store::Store &on) {
                return bool(turns::TurnRecords(on).setState(id, turns::TurnState::Done, at));
            }))
            return 2;
        turn.state = turns::TurnState::Done;
        turn.endedAt = at;
        emit windowEngine->turnFinished(turn);
        desktop::turnEventLoop(400);
    }
    report(meter, "this process queues and ends 3 turns");
    return 0;
}

// Waits, the event loop turning, until `model` has applied its read; the
// milliseconds that took (the worker's query and the apply).
qint64 waitForRead(models::LedgerModel &model)
{
    QElapsedTimer clock;
    clock.start();
    // A view scrolled to its end may ask for the next page at once: that
    // one is not waited for.
    desktop::turnEventLoop(60000, [&] { return !model.loading(); });
    if (clock.elapsed() >= 60000)
        std::printf("  a ledger read did not end within 60 s\n");
    return clock.elapsed();
}

void chooseAndWait(desktop::LedgerViewer &viewer, const char *chooser, const QVariant &data,
                   const char *what)
{
    auto *combo = viewer.findChild<QComboBox *>(QString::fromLatin1(chooser));
    combo->setCurrentIndex(combo->findData(data));
    const qint64 ms = waitForRead(*viewer.model());
    std::printf("    %-44s %4lld ms to the rows (%d shown)\n", what, ms,
                viewer.model()->rowCount());
}

// (c) The egress ledger of a turn in a ledger of 1,000,000 rows, from the
// window's turn panel: open its view, scroll five pages down every
// folder's rows, change the filters.
int bigLedger(const turns::RunnerSettings &settings)
{
    std::printf("(c) the egress ledger view over 1,000,000 rows\n");
    QTemporaryDir directory;
    auto opened = store::Store::open(directory.filePath(QStringLiteral("data")));
    if (!opened)
        return 2;
    store::Store &store = **opened;
    QElapsedTimer filling;
    filling.start();
    // One statement in one transaction: ids grow with time, every seventh
    // request denied, turn-0999 in folder-9 the newest.
    QSqlQuery fill(store.database());
    if (!fill.exec(QStringLiteral("BEGIN")) ||
        !fill.exec(
            QStringLiteral(
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                "INSERT INTO egress_ledger (time, turn, event_seq, folder, topic, client, source, "
                "method, host, port, path, decision, reason, rule_id, rule_text, rule_folder, "
                "status, bytes_up, bytes_down, duration_ms) "
                "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || ((%1 - i) * 864 / 1000) || "
                "' seconds'), printf('turn-%04d', i / 1000), i % 1000 + 1, printf('folder-%d', "
                "(i / 1000) % 10), 'main', '10.213.0.2', 'proxy', "
                "CASE WHEN i % 2 THEN 'CONNECT' ELSE 'GET' END, printf('h%d.example', i % 5000), "
                "443, CASE WHEN i % 2 THEN NULL ELSE '/x' END, "
                "CASE WHEN i % 7 = 0 THEN 'deny' ELSE 'allow' END, "
                "CASE WHEN i % 7 = 0 THEN 'host-denied' ELSE 'allowed' END, "
                "1, 'allow example', '', 200, 100, 1000, 5 FROM n")
                .arg(ledgerRows - 1)) ||
        !fill.exec(QStringLiteral("COMMIT"))) {
        std::printf("filling the ledger: %s\n", qPrintable(fill.lastError().text()));
        return 2;
    }
    std::printf("  filled %d rows in %lld ms\n", ledgerRows, filling.elapsed());

    // The newest turn, in the window's turn panel as when its topic is shown.
    turns::TurnRecord turn;
    turn.id = QStringLiteral("turn-0999");
    turn.name = QStringLiteral("az-0999");
    turn.folder = QStringLiteral("folder-9");
    turn.topic = QStringLiteral("main");
    turn.state = turns::TurnState::Done;

    engine::Workspace workspace(store);
    auto window = openWindow(workspace, settings);
    window->turnPanel()->showTurn(turn);
    desktop::turnEventLoop(1000);
    desktop::StallMeter meter;
    desktop::turnEventLoop(500);
    report(meter, "idle, in the window (the floor)");

    // As the Network tab's button opens it.
    desktop::LedgerViewer &viewer = *window->turnPanel()->openLedger();
    const qint64 opening = waitForRead(*viewer.model());
    desktop::turnEventLoop(300);
    report(meter, "open the ledger view of a turn");
    std::printf("    the turn's first page: %lld ms to the rows\n", opening);
    {
        // Again: the first view in the process also built its widgets' style.
        desktop::LedgerViewer &again = *window->turnPanel()->openLedger();
        waitForRead(*again.model());
        desktop::turnEventLoop(300);
        report(meter, "open a second ledger view of the turn");
        again.close();
    }

    chooseAndWait(viewer, "scope", int(desktop::LedgerViewer::Scope::Everything), "every folder");
    for (int page = 0; page < 5; ++page) {
        viewer.table()->scrollToBottom();
        const qint64 ms = waitForRead(*viewer.model());
        std::printf("    scrolled to the end: %4lld ms to %d rows\n", ms,
                    viewer.model()->rowCount());
        desktop::turnEventLoop(100);
    }
    report(meter, "every folder, scroll to the end 5 times");

    chooseAndWait(viewer, "decision", QStringLiteral("deny"), "denied, every folder");
    chooseAndWait(viewer, "scope", int(desktop::LedgerViewer::Scope::Folder), "denied, folder-9");
    chooseAndWait(viewer, "since", 3600, "denied, folder-9, the last hour");
    chooseAndWait(viewer, "scope", int(desktop::LedgerViewer::Scope::Turn),
                  "denied, the turn, the last hour");
    chooseAndWait(viewer, "since", 0, "denied, the turn");
    chooseAndWait(viewer, "decision", QString(), "the turn");
    report(meter, "change the filters six times");
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    auto settings = turns::RunnerSettings::fromEnvironment();
    if (!settings) {
        std::printf("settings: %s\n", qPrintable(settings.error().message));
        return 2;
    }
    // No libvirt: the engine fails to start, and nothing but the window
    // and its store runs on this machine's 2 cores.
    settings->libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock");
    // The window's own settings (geometry) stay apart from a real user's.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    const QStringList arguments = QCoreApplication::arguments();
    const bool turnOnly = arguments.contains(QStringLiteral("--turn"));
    const bool treeOnly = arguments.contains(QStringLiteral("--tree"));
    const bool ledgerOnly = arguments.contains(QStringLiteral("--ledger"));
    const bool all = !turnOnly && !treeOnly && !ledgerOnly;
    if (all || turnOnly) {
        if (const int failed = longTurn(*settings))
            return failed;
    }
    if (all || treeOnly) {
        if (const int failed = bigTree(*settings))
            return failed;
    }
    if (all || ledgerOnly) {
        if (const int failed = bigLedger(*settings))
            return failed;
    }
    std::printf("longest GUI stall of all steps: %lld ms (target <= 16)\n", g_worst);
    return 0;
}
