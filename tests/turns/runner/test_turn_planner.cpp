// A turn's plan is made on a worker, never on the thread that runs the
// turns, and reported there; a plan dropped while it is made (its turn
// cancelled) is never reported and takes nothing the topic's next turn
// needs (the observed folders' messages). A real store, no libvirt.

#include "agent/claude_session.h"
#include "agent/session_files.h"
#include "policy/policy.h"
#include "session_read_gate.h"
#include "store/timestamp.h"
#include "tools/observations.h"
#include "tools/topic_messages.h"
#include "turn_bench.h"
#include "turns/turn_planner.h"

#include <QUuid>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

struct Bench : TurnBench
{
    QThreadPool workers;

    Bench()
        : TurnBench({QStringLiteral("corp"), QStringLiteral("ops")}, demo())
    {
        environment->workers = &workers;
    }

    static RunnerSettings demo()
    {
        RunnerSettings settings;
        settings.modelProvider = ModelProviderChoice::Demo;
        return settings;
    }

    static PlanRequest request(AgentKind agent = AgentKind::Claude)
    {
        return {QUuid::createUuid().toString(QUuid::WithoutBraces), QStringLiteral("corp"),
                QStringLiteral("main"), agent, false};
    }

    // A turn of `agent` in corp/main that ran its agent.
    void addRunTurn(AgentKind agent)
    {
        if (!records->setState(addTurn(agent).id, TurnState::Running, store::nowTimestamp()))
            qFatal("no running turn");
    }
};

} // namespace

class TestTurnPlanner : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        readStarted.acquire(readStarted.available());
        readMayGoOn.acquire(readMayGoOn.available());
        agent::setSessionInspectionHook(&holdTheSessionRead);
    }
    void cleanup()
    {
        agent::setSessionInspectionHook(nullptr);
        readMayGoOn.release(100);
    }

    void plansOnAWorkerAndReportsOnItsOwnThread()
    {
        Bench bench;
        TurnPlanner planner(*bench.environment);
        QThread *reportedOn = nullptr;
        QList<Result<TurnPlan>> plans;
        connect(&planner, &TurnPlanner::planned, this,
                [&](const QString &, const Result<TurnPlan> &plan) {
                    reportedOn = QThread::currentThread();
                    plans << plan;
                });
        const PlanRequest request = Bench::request();
        planner.plan(request);
        QVERIFY(planner.isPlanning(request.turnId));
        // The thread that runs the turns is free while the file is read.
        QVERIFY(aReadStarted());
        QVERIFY2(readingThread.loadAcquire() != QThread::currentThread(),
                 "the session file was read on the thread that runs the turns");
        QVERIFY(plans.isEmpty());
        readMayGoOn.release();
        QTRY_COMPARE(plans.size(), 1);
        QCOMPARE(reportedOn, QThread::currentThread());
        QVERIFY2(plans.first().ok(),
                 plans.first().ok() ? "" : qPrintable(plans.first().error().message));
        const TurnPlan &plan = *plans.first();
        QCOMPARE(plan.home.folder, QStringLiteral("corp"));
        QVERIFY(!plan.sessionId.isEmpty());
        QVERIFY(plan.newSession);    // no session file yet
        QVERIFY(plan.allowLoopback); // the demo page's
        QVERIFY(!planner.isPlanning(request.turnId));
    }

    // Cancelled while its session file is read: nothing is reported, and
    // the observed folder's message is still there for the next plan.
    void aDroppedPlanIsNotReportedAndTakesNothing()
    {
        Bench bench;
        policy::Grant observeOps;
        observeOps.principal = QStringLiteral("corp");
        observeOps.action = QStringLiteral("mcp:observe_group");
        observeOps.scope = QStringLiteral("ops");
        QVERIFY(policy::Policy(*bench.store).grants().add(observeOps, QStringLiteral("user:test")));
        QVERIFY(tools::observe(*bench.store, QStringLiteral("corp"), QStringLiteral("main"),
                               QStringLiteral("ops")));
        QVERIFY(tools::postMessage(*bench.store, QStringLiteral("ops"), QStringLiteral("main"),
                                   QStringLiteral("agent"), QStringLiteral("the pager rang")));
        TurnPlanner planner(*bench.environment);
        QList<std::pair<QString, Result<TurnPlan>>> planned;
        connect(&planner, &TurnPlanner::planned, this,
                [&planned](const QString &turnId, const Result<TurnPlan> &plan) {
                    planned.append({turnId, plan});
                });
        const PlanRequest dropped = Bench::request();
        planner.plan(dropped);
        QVERIFY(aReadStarted());
        planner.drop(dropped.turnId);
        QVERIFY(!planner.isPlanning(dropped.turnId));
        readMayGoOn.release();
        bench.workers.waitForDone();
        QTest::qWait(100); // the worker's answer, were it reported
        QCOMPARE(planned.size(), 0);

        readMayGoOn.release(); // the next plan's read goes on at once
        const PlanRequest next = Bench::request();
        planner.plan(next);
        QTRY_COMPARE(planned.size(), 1);
        QCOMPARE(planned.first().first, next.turnId);
        const Result<TurnPlan> &reported = planned.first().second;
        QVERIFY2(reported.ok(), reported.ok() ? "" : qPrintable(reported.error().message));
        // Reported, the plan has taken nothing yet: a turn cancelled before
        // the runner hears of it must leave the message too.
        QVERIFY(reported->takesObservedContext);
        QVERIFY(reported->observedContext.isEmpty());
        const Result<TurnPlan> plan =
            planner.takeObservedContext(QStringLiteral("corp"), QStringLiteral("main"), reported);
        QVERIFY2(plan.ok(), plan.ok() ? "" : qPrintable(plan.error().message));
        QVERIFY2(plan->observedContext.contains(QStringLiteral("the pager rang")),
                 qPrintable(plan->observedContext));
        // Taken once: the topic's next turn does not see it again.
        const Result<TurnPlan> again =
            planner.takeObservedContext(QStringLiteral("corp"), QStringLiteral("main"), reported);
        QVERIFY(again.ok());
        QVERIFY2(again->observedContext.isEmpty(), qPrintable(again->observedContext));
    }

    // A topic whose agent ran before but whose session file is gone starts
    // afresh, and its transcript names the file where the kind's profile
    // can say (Claude Code's, named by the id), else the session.
    void aLostSessionFileIsNamedWhereTheProfileCan_data()
    {
        QTest::addColumn<AgentKind>("agent");
        QTest::newRow("claude") << AgentKind::Claude;
        QTest::newRow("codex") << AgentKind::Codex;
    }

    void aLostSessionFileIsNamedWhereTheProfileCan()
    {
        QFETCH(AgentKind, agent);
        readMayGoOn.release(100);
        Bench bench;
        // The topic is the kind's already (its first turn switched it).
        QVERIFY(
            folders::Topics(*bench.store, QStringLiteral("user:test"))
                .useAgent(QStringLiteral("corp"), QStringLiteral("main"), agentKindName(agent)));
        bench.addRunTurn(agent);
        TurnPlanner planner(*bench.environment);
        QList<Result<TurnPlan>> plans;
        connect(&planner, &TurnPlanner::planned, this,
                [&](const QString &, const Result<TurnPlan> &plan) { plans << plan; });
        planner.plan(Bench::request(agent));
        QTRY_COMPARE(plans.size(), 1);
        QVERIFY2(plans.first().ok(),
                 plans.first().ok() ? "" : qPrintable(plans.first().error().message));
        const TurnPlan &plan = *plans.first();
        QVERIFY(plan.newSession);
        const QString named =
            agent == AgentKind::Claude ? agent::claudeSessionFile(plan.sessionId) : plan.sessionId;
        QCOMPARE(plan.sessionNote, QStringLiteral("the topic's session file %1 is missing; this "
                                                  "turn starts a fresh conversation")
                                       .arg(named));
    }
};

QTEST_GUILESS_MAIN(TestTurnPlanner)
#include "test_turn_planner.moc"
