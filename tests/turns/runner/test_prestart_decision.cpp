// Warm start's one decision about a started agent (PrestartDecision): the
// agent a folder's spare starts, and every reason a turn adopting the spare
// cannot hand its prompt to it. Only an accepted turn moves its topic to
// the agent's session. A real store and home, no VM.

#include "turn_bench.h"
#include "turns/prestart_decision.h"

#include <QDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

struct Bench : TurnBench
{
    TurnPlan plan; // a fresh topic's: nothing in it refuses

    Bench()
        : TurnBench({QStringLiteral("corp")}, opus())
    {
        const Result<TurnHome> home = resolveTurnHome(*store, QStringLiteral("corp"));
        if (!home)
            qFatal("home: %s", qPrintable(home.error().message));
        plan.home = *home;
        plan.sessionId = topicSession();
        plan.newSession = true;
    }

    static RunnerSettings opus()
    {
        RunnerSettings settings;
        settings.model = QStringLiteral("opus");
        return settings;
    }

    QString topicSession()
    {
        const auto topics =
            folders::Topics(*store, QStringLiteral("user:test")).list(QStringLiteral("corp"));
        return topics && !topics->isEmpty() ? topics->first().sessionId : QString();
    }

    static PrestartTurn turn(AgentKind agent = AgentKind::Claude,
                             const QString &model = QStringLiteral("opus"))
    {
        return {QStringLiteral("corp"), QStringLiteral("main"), agent, model};
    }
};

} // namespace

class TestPrestartDecision : public QObject
{
    Q_OBJECT

private slots:
    void theAgentOfTheFoldersLatestTurnIsStartedAhead()
    {
        Bench bench;
        PrestartDecision decision(*bench.environment);
        std::optional<PrestartedAgent> agent = decision.agentFor(QStringLiteral("corp"));
        QVERIFY(agent); // a folder without turns: Claude Code
        QCOMPARE(agent->agent, AgentKind::Claude);
        QCOMPARE(agent->model, QStringLiteral("opus"));
        QVERIFY(!agent->sessionId.isEmpty());
        bench.addTurn(AgentKind::Pi);
        QCOMPARE(decision.agentFor(QStringLiteral("corp"))->agent, AgentKind::Pi);
        bench.addTurn(AgentKind::Command);
        QVERIFY(!decision.agentFor(QStringLiteral("corp")));
        bench.addTurn(AgentKind::Codex);
        bench.environment->settings.prestartAgent = false;
        QVERIFY(!decision.agentFor(QStringLiteral("corp")));
    }

    void eachReasonRefusesAndLeavesTheTopicsSession()
    {
        Bench bench;
        PrestartDecision decision(*bench.environment);
        const PrestartedAgent agent = *decision.agentFor(QStringLiteral("corp"));
        const QString before = bench.topicSession();
        const auto refused = [&](const PrestartTurn &turn, TurnPlan plan, bool shellEnvironment) {
            const QString reason = decision.refusal(agent, turn, plan, shellEnvironment);
            if (plan.sessionId != before || bench.topicSession() != before)
                return QStringLiteral("the session moved although refused: ") + reason;
            return reason;
        };
        QCOMPARE(refused(Bench::turn(AgentKind::Pi), bench.plan, false),
                 QStringLiteral("the spare started Claude Code, the turn runs pi"));
        TurnPlan resumes = bench.plan;
        resumes.newSession = false;
        QCOMPARE(refused(Bench::turn(), resumes, false),
                 QStringLiteral("the topic resumes its session"));
        TurnPlan lost = bench.plan;
        lost.sessionNote = QStringLiteral("damaged");
        QCOMPARE(refused(Bench::turn(), lost, false),
                 QStringLiteral("the topic's session was lost"));
        TurnPlan skills = bench.plan;
        skills.skills = QStringList{QStringLiteral("deploy")};
        QCOMPARE(refused(Bench::turn(), skills, false), QStringLiteral("the folder has skills"));
        QCOMPARE(
            refused(Bench::turn(AgentKind::Claude, QStringLiteral("haiku")), bench.plan, false),
            QStringLiteral("the model changed since the spare was made"));
        QCOMPARE(refused(Bench::turn(), bench.plan, true),
                 PrestartDecision::shellEnvironmentRefusal());
        QVERIFY(QDir().mkpath(bench.plan.home.path + QStringLiteral("/.claude/agents")));
        const QString read = refused(Bench::turn(), bench.plan, false);
        QVERIFY2(read.startsWith(QStringLiteral("the home holds ")) &&
                     read.endsWith(QStringLiteral(", which Claude Code reads only at its start")),
                 qPrintable(read));
    }

    void anAcceptedTurnTakesTheAgentsSession()
    {
        Bench bench;
        PrestartDecision decision(*bench.environment);
        const PrestartedAgent agent = *decision.agentFor(QStringLiteral("corp"));
        TurnPlan plan = bench.plan;
        QCOMPARE(decision.refusal(agent, Bench::turn(), plan, false), QString());
        QCOMPARE(plan.sessionId, agent.sessionId);
        QCOMPARE(bench.topicSession(), agent.sessionId);
    }
};

QTEST_GUILESS_MAIN(TestPrestartDecision)
#include "test_prestart_decision.moc"
