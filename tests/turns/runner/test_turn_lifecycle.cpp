// A turn's lifecycle against a fake guest machine (fake_guest_machine.h):
// no VM, no libvirt, a real store. The spec goes out only once the machine
// is ready (the VM up, the proxy healthy, the filter in force) and the
// turn's gateway listens; a cancel in any phase ends the turn once and
// stops its machine; a failed write of the turn's events fails the turn
// with the reason; a second start is refused. A spare's gateway serves no
// model until a turn takes the spare.

#include "folders/folders.h"
#include "folders/topics.h"
#include "gateway/scripted_model.h"
#include "history/home_history.h"
#include "history/turn_history_recorder.h"
#include "http_test_client.h"
#include "store/store.h"
#include "turn_bench.h"
#include "turns/spare_pool.h"
#include "turns/turn.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

// One turn of folder `corp` on a fresh store, with the machines it asks for.
struct Bench : TurnBench
{
    std::unique_ptr<Turn> turn;

    explicit Bench(AgentKind agent = AgentKind::Command)
        : TurnBench({QStringLiteral("corp")}, anyGatewayPort())
    {
        turn = makeTurn(QStringLiteral("corp"), agent);
    }

    static RunnerSettings anyGatewayPort()
    {
        RunnerSettings settings;
        settings.gatewayPort = 0; // any free port on loopback
        return settings;
    }

    // A turn of `folder`'s topic main, not started.
    std::unique_ptr<Turn> makeTurn(const QString &folder, AgentKind agent = AgentKind::Command)
    {
        const TurnRecord record = addTurn(agent, folder, QStringLiteral("echo hello"));
        TurnRequest request;
        request.folder = record.folder;
        request.topic = record.topic;
        request.agent = agent;
        request.prompt = record.prompt;
        return std::make_unique<Turn>(*environment, record, request);
    }

    FakeGuestMachine &machine() { return *machines.value(0); }
    // A port the spec and `prestart` name can be reached on (with port 0
    // the gateway listens on one they do not name).
    void listenOnAFreePort()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost))
            qFatal("no free port on loopback");
        environment->settings.gatewayPort = probe.serverPort();
    }
    void settle() { QTest::qWait(20); }
    QStringList storedKinds()
    {
        QStringList kinds;
        const auto events = records->events(turn->id());
        for (const TurnEventRecord &event : events.value())
            kinds << event.kind;
        return kinds;
    }
};

// Holds the history lock of `folder`'s home, as another writer (an undo in
// arizukoctl) does, until release() or its end.
class HeldHistory
{
public:
    HeldHistory(store::Store &store, const QString &folder)
    {
        const auto home = folders::Folders(store, QStringLiteral("user:test")).home(folder);
        if (!home || !history::HomeHistory::open(store.dataDir(), home->id, {}))
            return;
        repository = history::HomeHistory::repositoryPath(store.dataDir(), home->id);
        m_fd = ::open(QFile::encodeName(repository + QStringLiteral("/arizuko.lock")),
                      O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd >= 0 && ::flock(m_fd, LOCK_EX) != 0)
            release();
    }
    ~HeldHistory() { release(); }
    HeldHistory(const HeldHistory &) = delete;
    HeldHistory &operator=(const HeldHistory &) = delete;
    bool held() const { return m_fd >= 0; }
    void release()
    {
        if (m_fd >= 0)
            ::close(std::exchange(m_fd, -1));
    }

    QString repository;

private:
    int m_fd = -1;
};

} // namespace

class TestTurnLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void theSpecWaitsForTheReadyMachine()
    {
        Bench bench;
        bench.turn->start(TurnPlan{});
        QCOMPARE(bench.machines.size(), 1);
        QCOMPARE(bench.turn->state(), TurnState::Preparing);
        bench.machine().reachNetwork();
        bench.settle();
        bench.machine().beginBoot();
        bench.settle();
        QCOMPARE(bench.turn->state(), TurnState::Booting);
        // Network, proxy and boot under way: still no spec.
        QVERIFY(bench.machine().specs.isEmpty());
        bench.machine().becomeReady();
        QTRY_COMPARE(bench.machine().specs.size(), 1);
        const QJsonObject spec = bench.machine().specs.first();
        QCOMPARE(spec.value(QStringLiteral("turn_id")).toString(), bench.turn->id());
        QCOMPARE(spec.value(QStringLiteral("command")).toString(), QStringLiteral("echo hello"));
        QCOMPARE(spec.value(QStringLiteral("proxy_url")).toString(),
                 QStringLiteral("http://127.0.0.1:3128"));
        QCOMPARE(spec.value(QStringLiteral("gateway_token")).toString().size(), 48);
        // A second ready (a warm recheck) sends no second spec.
        bench.machine().becomeReady();
        bench.settle();
        QCOMPARE(bench.machine().specs.size(), 1);
        QVERIFY(bench.storedKinds().contains(QStringLiteral("timing")));
    }

    void aTurnRunsToDoneAndAcksTheExit()
    {
        Bench bench;
        QSignalSpy released(bench.turn.get(), &Turn::released);
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.machine().beginBoot();
        bench.machine().becomeReady();
        bench.machine().say({{QStringLiteral("type"), QStringLiteral("event")},
                             {QStringLiteral("line"), QStringLiteral("hello")}});
        QTRY_COMPARE(bench.turn->state(), TurnState::Running);
        bench.machine().say({{QStringLiteral("type"), QStringLiteral("exit")},
                             {QStringLiteral("reason"), QStringLiteral("exited")},
                             {QStringLiteral("code"), 0},
                             {QStringLiteral("seq"), 7}});
        bench.machine().closeChannel();
        QTRY_COMPARE(bench.turn->state(), TurnState::Done);
        QCOMPARE(bench.machine().sent.value(0).value(QStringLiteral("type")).toString(),
                 QStringLiteral("ack"));
        QCOMPARE(bench.machine().stops, 1);
        QCOMPARE(bench.records->find(bench.turn->id())->exitCode, 0);
        QVERIFY(released.isEmpty());
        bench.machine().finishStopping();
        QTRY_COMPARE(released.size(), 1);
        QTRY_VERIFY(bench.storedKinds().contains(QStringLiteral("event")));
    }

    void cancelInEachPhase_data()
    {
        QTest::addColumn<int>("phase");
        QTest::newRow("preparing") << 0;
        QTest::newRow("network made") << 1;
        QTest::newRow("booting") << 2;
        QTest::newRow("running") << 3;
    }

    void cancelInEachPhase()
    {
        QFETCH(int, phase);
        Bench bench;
        QSignalSpy finished(bench.turn.get(), &Turn::finished);
        QSignalSpy released(bench.turn.get(), &Turn::released);
        bench.turn->start(TurnPlan{});
        FakeGuestMachine &machine = bench.machine();
        if (phase >= 1)
            machine.reachNetwork();
        if (phase >= 2)
            machine.beginBoot();
        if (phase >= 3) {
            machine.becomeReady();
            machine.say({{QStringLiteral("type"), QStringLiteral("status")},
                         {QStringLiteral("state"), QStringLiteral("running")}});
        }
        bench.settle();
        bench.turn->cancel(QStringLiteral("the test cancels"));
        QCOMPARE(bench.turn->state(), TurnState::Cancelled);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(machine.stops, 1);
        // What the machine reports afterwards changes nothing.
        if (phase < 3)
            machine.becomeReady();
        machine.closeChannel();
        bench.turn->cancel(QStringLiteral("again"));
        bench.settle();
        QCOMPARE(bench.turn->state(), TurnState::Cancelled);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(machine.specs.size(), phase >= 3 ? 1 : 0);
        machine.finishStopping();
        QTRY_COMPARE(released.size(), 1);
        const TurnRecord stored = *bench.records->find(bench.turn->id());
        QCOMPARE(stored.state, TurnState::Cancelled);
        QTRY_VERIFY(bench.storedKinds().contains(QStringLiteral("cancel")));
    }

    void aMachineFailureFailsTheTurnWithItsReason()
    {
        Bench bench;
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.machine().breakDown(makeError(QStringLiteral("turns.proxy-unhealthy"),
                                            QStringLiteral("no health within 15 s")));
        QTRY_COMPARE(bench.turn->state(), TurnState::Failed);
        QCOMPARE(bench.turn->record().errorCode, QStringLiteral("turns.proxy-unhealthy"));
        QCOMPARE(bench.records->find(bench.turn->id())->error,
                 QStringLiteral("no health within 15 s"));
        QVERIFY(bench.machine().specs.isEmpty());
    }

    void aFailedEventWriteFailsTheTurn()
    {
        QList<TurnEventRecord> emitted; // outlives the turn, which emits until its end
        Bench bench;
        connect(bench.turn.get(), &Turn::eventReceived, bench.turn.get(),
                [&emitted](const TurnEventRecord &event) { emitted << event; });
        bench.turn->start(TurnPlan{});
        bench.settle();
        // The transcript's table is gone: the next batch cannot be stored.
        QSqlQuery query(bench.store->database());
        QVERIFY(query.exec(QStringLiteral("ALTER TABLE turn_events RENAME TO turn_events_gone")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("failed at")));
        bench.machine().reachNetwork();
        bench.machine().say({{QStringLiteral("type"), QStringLiteral("status")},
                             {QStringLiteral("state"), QStringLiteral("booted")}});
        QTRY_COMPARE(bench.turn->state(), TurnState::Failed);
        QCOMPARE(bench.turn->record().errorCode, QStringLiteral("turns.store"));
        QVERIFY2(bench.turn->record().error.contains(QStringLiteral("turn's events")),
                 qPrintable(bench.turn->record().error));
        // The reason reaches the transcript (and arizukoctl) as an event,
        // and the turn's row, which is still writable.
        const auto error = std::find_if(emitted.begin(), emitted.end(), [](const auto &event) {
            return event.kind == QLatin1String("error");
        });
        QVERIFY(error != emitted.end());
        QCOMPARE(error->json.value(QStringLiteral("code")).toString(),
                 QStringLiteral("turns.store"));
        QCOMPARE(bench.records->find(bench.turn->id())->errorCode, QStringLiteral("turns.store"));
        QCOMPARE(bench.machine().stops, 1);
        QVERIFY(bench.machine().specs.isEmpty());
    }

    void aSecondStartIsRefused()
    {
        Bench bench;
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.settle();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("soft assert")));
        bench.turn->start(TurnPlan{});
        QCOMPARE(bench.machines.size(), 1);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("soft assert")));
        bench.turn->startWarm(TurnPlan{}, {}, QString());
        QCOMPARE(bench.turn->state(), TurnState::Preparing);
        QCOMPARE(bench.machines.size(), 1);
    }

    // The spare's gateway listens from the spare's network on (its started
    // agent connects to the tools at its start), but before a turn takes
    // the spare it serves no model: a model request from the spare's
    // guest, with the right token, is refused with 503 and recorded; the
    // turn that takes the spare gets the record, and the same request is
    // then served.
    void aSparesGatewayServesTheModelOnlyOnceATurnTakesIt()
    {
        Bench bench;
        bench.listenOnAFreePort();
        SparePool pool(*bench.environment);
        SpareBasis basis;
        basis.folder = QStringLiteral("corp");
        basis.agent = PrestartedAgent{AgentKind::Claude, {}, QStringLiteral("spare-session")};
        pool.boot(basis);
        FakeGuestMachine &machine = bench.machine();
        machine.reachNetwork();
        machine.beginBoot();
        machine.becomeReady();
        QVERIFY(pool.isReady());
        QCOMPARE(machine.sent.size(), 1); // the prestart, with the gateway's address and token
        const QJsonObject prestart = machine.sent.first();
        const QUrl gatewayUrl(prestart.value(QStringLiteral("gateway_url")).toString());
        const QByteArray token =
            prestart.value(QStringLiteral("gateway_token")).toString().toLatin1();
        QCOMPARE(token.size(), 48);

        using namespace gateway::testing;
        ClientRequest request;
        request.headers = {{"x-api-key", token},
                           {"anthropic-version", "2023-06-01"},
                           {"Content-Type", "application/json"}};
        request.body = messagesBody(QStringLiteral("hi"));
        const QHostAddress host(gatewayUrl.host());
        const auto subnet = *machine.subnet();
        const QHostAddress guest(subnet.guestAddress());
        const quint16 port = quint16(gatewayUrl.port());
        const ClientReply early = sendRequest(host, port, request, guest);
        QCOMPARE(early.status, 503);
        QVERIFY2(early.body.contains("no turn has started on this gateway yet"), early.body);

        TurnPlan plan;
        auto script = gateway::ScriptedModel::load(
            R"({"name": "taken", "exchanges": [{"prompt": "*", "steps": [{"text": "served"}]}]})");
        QVERIFY(script);
        plan.model.script = std::make_shared<const gateway::ScriptedModel>(std::move(*script));
        bench.turn->startWarm(plan, pool.adopt(), QStringLiteral("the turn runs a command"));
        QTRY_VERIFY(bench.storedKinds().contains(QStringLiteral("gateway")));
        QJsonObject refusal;
        const auto events = bench.records->events(bench.turn->id());
        for (const TurnEventRecord &event : events.value())
            if (event.kind == u"gateway")
                refusal = event.json;
        QCOMPARE(refusal.value(QStringLiteral("reason")).toString(), QStringLiteral("not-started"));
        QCOMPARE(refusal.value(QStringLiteral("status")).toInt(), 503);
        QCOMPARE(refusal.value(QStringLiteral("path")).toString(), QStringLiteral("/v1/messages"));

        // Taken: the turn's model (a scripted demo here) is served on the
        // same gateway, to the same token.
        const ClientReply served = sendRequest(host, port, request, guest);
        QCOMPARE(served.status, 200);
        QVERIFY2(served.body.contains("served"), served.body);
    }

    void aWarmTurnRechecksItsMachineBeforeTheSpec()
    {
        Bench bench;
        auto spare =
            std::make_unique<FakeGuestMachine>(GuestMachineSpec{QStringLiteral("az-5pa7e000"),
                                                                {},
                                                                bench.directory.path(),
                                                                {},
                                                                {},
                                                                false,
                                                                false,
                                                                {},
                                                                {},
                                                                0,
                                                                {},
                                                                {},
                                                                {},
                                                                {}});
        FakeGuestMachine *machine = spare.get();
        machine->reachNetwork();
        machine->beginBoot();
        machine->becomeReady();
        BootedGuest warm;
        warm.machine = std::move(spare);
        warm.guestMessages = {{{QStringLiteral("type"), QStringLiteral("status")},
                               {QStringLiteral("state"), QStringLiteral("booted")}}};
        warm.ageMs = 1234;
        bench.turn->startWarm(TurnPlan{}, std::move(warm), QString());
        QCOMPARE(machine->rechecks, 1);
        bench.settle();
        QVERIFY(machine->specs.isEmpty());
        machine->becomeReady();
        QTRY_COMPARE(machine->specs.size(), 1);
        const TurnRecord stored = *bench.records->find(bench.turn->id());
        QCOMPARE(stored.vmName, QStringLiteral("az-5pa7e000"));
        QCOMPARE(stored.subnet, QStringLiteral("127.0.0.0/30"));
        QTRY_VERIFY(bench.storedKinds().contains(QStringLiteral("spare")));
    }

    // The home history's snapshot before the turn is a gate: while another
    // writer holds the history (its lock, as an undo in arizukoctl does),
    // the machine gets ready and the agent still does not start.
    void theAgentWaitsForTheSnapshotBefore()
    {
        Bench bench;
        // Made before the lock, so destroyed after it is let go: its
        // destructor waits for the snapshot, which waits for the lock.
        history::TurnHistoryRecorder recorder(*bench.store, {});
        HeldHistory lock(*bench.store, QStringLiteral("corp"));
        QVERIFY(lock.held());
        const QString &repository = lock.repository;
        recorder.record(bench.turn.get(), bench.environment->agentGate);
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.machine().beginBoot();
        bench.machine().becomeReady();
        QTest::qWait(1000);
        QCOMPARE(bench.machine().state(), GuestMachine::State::Ready);
        QVERIFY(bench.machine().specs.isEmpty()); // the agent has not started
        const QString before =
            repository + QStringLiteral("/refs/turns/%1/before").arg(bench.turn->id());
        QVERIFY(!QFile::exists(before));
        lock.release();
        QTRY_COMPARE(bench.machine().specs.size(), 1);
        QVERIFY(QFile::exists(before)); // taken before the spec went out
    }

    // Snapshots of different homes run side by side: while corp's is held
    // (its history locked, as a huge read would hold it), a turn of lab
    // gets its snapshot before and its agent at once.
    void aSlowSnapshotOfOneHomeNeverHoldsAnotherHomesTurn()
    {
        Bench bench;
        QVERIFY(
            folders::Folders(*bench.store, QStringLiteral("user:test")).add(QStringLiteral("lab")));
        QVERIFY(folders::Topics(*bench.store, QStringLiteral("user:test"))
                    .add(QStringLiteral("lab"), QStringLiteral("main")));
        history::TurnHistoryRecorder recorder(*bench.store, {});
        HeldHistory lock(*bench.store, QStringLiteral("corp"));
        QVERIFY(lock.held());
        recorder.record(bench.turn.get(), bench.environment->agentGate);
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.machine().beginBoot();
        bench.machine().becomeReady();
        QTest::qWait(200); // corp's snapshot is under way, waiting for the lock

        const std::unique_ptr<Turn> lab = bench.makeTurn(QStringLiteral("lab"));
        recorder.record(lab.get(), bench.environment->agentGate);
        lab->start(TurnPlan{});
        QTRY_COMPARE(bench.machines.size(), 2);
        FakeGuestMachine &labMachine = *bench.machines.at(1);
        labMachine.reachNetwork();
        labMachine.beginBoot();
        labMachine.becomeReady();
        QTRY_COMPARE_WITH_TIMEOUT(labMachine.specs.size(), 1, 5000);
        QVERIFY(bench.machine().specs.isEmpty()); // corp's still waits for its own
        lock.release();
        QTRY_COMPARE(bench.machine().specs.size(), 1);
    }

    void aFailedSnapshotBeforeFailsTheTurnWithItsReason()
    {
        Bench bench;
        // <data>/history reached through a link: the history refuses it.
        QTemporaryDir elsewhere;
        QVERIFY(QFile::link(elsewhere.path(), bench.store->dataDir() + QStringLiteral("/history")));
        history::TurnHistoryRecorder recorder(*bench.store, {});
        QSignalSpy failed(&recorder, &history::TurnHistoryRecorder::recordFailed);
        recorder.record(bench.turn.get(), bench.environment->agentGate);
        bench.turn->start(TurnPlan{});
        bench.machine().reachNetwork();
        bench.machine().beginBoot();
        bench.machine().becomeReady();
        QTRY_COMPARE(bench.turn->state(), TurnState::Failed);
        QVERIFY(bench.machine().specs.isEmpty());
        QCOMPARE(bench.machine().stops, 1);
        const TurnRecord record = *bench.records->find(bench.turn->id());
        QCOMPARE(record.errorCode, QStringLiteral("history.before-failed"));
        QVERIFY2(record.error.startsWith(QStringLiteral(
                     "the snapshot of the home before the turn failed, so its agent was not "
                     "started: ")),
                 qPrintable(record.error));
        QCOMPARE(failed.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestTurnLifecycle)
#include "test_turn_lifecycle.moc"
