// The warm-start pool against fake guest machines (fake_guest_machine.h),
// no VM: a selection boots a spare only once it stays (a click through the
// tree boots none) and at most a few a minute; a spare is adopted whole,
// with what its guest sent; one past its age is lost; a discarded one is
// stopped and goes once stopped.

#include "policy/policy.h"
#include "store/store.h"
#include "turn_bench.h"
#include "turns/spare_pool.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

struct PoolBench : TurnBench
{
    std::unique_ptr<SparePool> pool;

    explicit PoolBench(std::chrono::seconds maxAge = std::chrono::seconds(600))
        : TurnBench({}, aged(maxAge))
    {
        pool = std::make_unique<SparePool>(*environment);
    }

    static RunnerSettings aged(std::chrono::seconds maxAge)
    {
        RunnerSettings settings;
        settings.spareMaxAge = maxAge;
        return settings;
    }

    static SpareBasis basis(const QString &folder)
    {
        SpareBasis basis;
        basis.folder = folder;
        basis.allow = {QStringLiteral("example.com")};
        return basis;
    }
};

} // namespace

class TestSparePool : public QObject
{
    Q_OBJECT

private slots:
    void aSelectionBootsOnlyOnceItStays()
    {
        PoolBench bench;
        QSignalSpy settled(bench.pool.get(), &SparePool::settled);
        // Clicks through the tree, 100 ms apart: none of them stays.
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "corp/ops"}) {
            bench.pool->settle(QLatin1String(folder));
            QTest::qWait(100);
        }
        QVERIFY(settled.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(settled.size(), 1, 3000);
        QCOMPARE(settled.first().first().toString(), QStringLiteral("corp/ops"));
        QVERIFY(bench.machines.isEmpty()); // settling boots nothing by itself
    }

    void atMostFourSettledBootsAMinute()
    {
        PoolBench bench;
        QSignalSpy settled(bench.pool.get(), &SparePool::settled);
        for (int round = 0; round < SparePool::maxSettledBootsPerMinute; ++round) {
            bench.pool->settle(QStringLiteral("folder%1").arg(round));
            QTRY_COMPARE_WITH_TIMEOUT(settled.size(), round + 1, 3000);
        }
        bench.pool->settle(QStringLiteral("one-too-many"));
        QTest::qWait(int(SparePool::settleTime.count()) + 1000);
        QCOMPARE(settled.size(), SparePool::maxSettledBootsPerMinute);
    }

    void aReadySpareIsAdoptedWhole()
    {
        PoolBench bench;
        QSignalSpy ready(bench.pool.get(), &SparePool::ready);
        bench.pool->boot(PoolBench::basis(QStringLiteral("corp")));
        QCOMPARE(bench.machines.size(), 1);
        FakeGuestMachine *machine = bench.machines.first();
        QCOMPARE(machine->state(), GuestMachine::State::Preparing);
        QVERIFY(machine->m_spec.directory.contains(QStringLiteral("/spares/az-")));
        QCOMPARE(machine->m_spec.allow, QStringList{QStringLiteral("example.com")});
        QVERIFY(bench.pool->adopt().machine == nullptr); // not ready yet
        machine->reachNetwork();
        machine->say({{QStringLiteral("type"), QStringLiteral("status")},
                      {QStringLiteral("state"), QStringLiteral("booted")}});
        machine->becomeReady();
        QCOMPARE(ready.size(), 1);
        QVERIFY(bench.pool->isReady());
        QCOMPARE(bench.pool->subnets().size(), 1);
        BootedGuest adopted = bench.pool->adopt();
        QCOMPARE(adopted.machine.get(), machine);
        QCOMPARE(adopted.guestMessages.size(), 1);
        QVERIFY(!bench.pool->hasSpare());
        QCOMPARE(machine->stops, 0);
    }

    void aSpareForAnotherFolderReplacesTheFirst()
    {
        PoolBench bench;
        QSignalSpy discarded(bench.pool.get(), &SparePool::discarded);
        bench.pool->boot(PoolBench::basis(QStringLiteral("corp")));
        bench.pool->boot(PoolBench::basis(QStringLiteral("corp"))); // the same: kept
        QCOMPARE(bench.machines.size(), 1);
        bench.pool->boot(PoolBench::basis(QStringLiteral("ops")));
        QCOMPARE(bench.machines.size(), 2);
        QCOMPARE(discarded.size(), 1);
        FakeGuestMachine *first = bench.machines.first();
        QCOMPARE(first->stops, 1);
        QCOMPARE(bench.pool->basis()->folder, QStringLiteral("ops"));
        const int destroyedBefore = FakeGuestMachine::destroyed();
        first->finishStopping();
        QTRY_COMPARE(FakeGuestMachine::destroyed(), destroyedBefore + 1);
    }

    // A folder with rules by method and path starts its turns cold: its
    // proxy needs the turn's own CA, made for that turn and its deadline.
    void aFolderWhoseProxyInspectsGetsNoSpare()
    {
        RunnerSettings settings;
        settings.warmStart = true;
        TurnBench bench({QStringLiteral("corp"), QStringLiteral("plain")}, settings);
        SparePool pool(*bench.environment);
        QVERIFY(policy::Policy(*bench.store)
                    .network()
                    .add(QStringLiteral("corp"), QStringLiteral("api.test"),
                         policy::RuleKind::Allow, QStringLiteral("user:test"),
                         QStringLiteral("GET"), QStringLiteral("/**")));
        pool.prepare(QStringLiteral("corp"), 0);
        QVERIFY(bench.machines.isEmpty());
        pool.prepare(QStringLiteral("plain"), 0); // the same pool makes one for a plain folder
        QCOMPARE(bench.machines.size(), 1);
        QVERIFY(bench.machines.first()->m_spec.rules.isEmpty());
    }

    void aSparePastItsAgeIsLost()
    {
        PoolBench bench(std::chrono::seconds(1));
        QSignalSpy lost(bench.pool.get(), &SparePool::lost);
        bench.pool->boot(PoolBench::basis(QStringLiteral("corp")));
        bench.machines.first()->becomeReady();
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 3000);
        QVERIFY(lost.first().first().toString().contains(QStringLiteral("older than 1 s")));
    }
};

QTEST_GUILESS_MAIN(TestSparePool)
#include "test_spare_pool.moc"
