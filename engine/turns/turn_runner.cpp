#include "turns/turn_runner.h"

#include "ledger/ledger.h"
#include "secrets/secret_store.h"
#include "store/run_store_work.h"
#include "store/timestamp.h"
#include "turns/libvirt_guest_machine.h"
#include "turns/queued_turn.h"

#include <algorithm>

namespace arizuko::turns {

// Each live turn blocks at most two workers at once (its domain creation
// and its teardown); more than enough for any concurrency setting.
constexpr int maxWorkers = 16;

TurnRunner::TurnRunner(store::Store &store, RunnerSettings settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_records(store)
    , m_engine(EngineProcess::current())
    , m_cancelRequests(m_records, m_engine.pid)
{
    // The connection and pool arrive with becomeReady(); until then no turn
    // starts.
    m_environment.reset(new TurnEnvironment{.store = store,
                                            .records = m_records,
                                            .owner = m_engine.mark(),
                                            .settings = std::move(settings),
                                            .pool = libvirt::SubnetPool(libvirt::Ipv4Range{}),
                                            .subnetsInUse = [this] { return subnetsInUse(); },
                                            .workers = &m_workers});
    m_environment->makeMachine = [this](GuestMachineSpec spec) {
        return std::unique_ptr<GuestMachine>(
            std::make_unique<LibvirtGuestMachine>(*m_environment, std::move(spec)));
    };
    m_spares = std::make_unique<SparePool>(*m_environment);
    connect(m_spares.get(), &SparePool::ready, this, &TurnRunner::spareReady);
    // A waiting turn adopts it; not from inside the spare's own signal, since
    // adopting it takes it from the pool.
    connect(m_spares.get(), &SparePool::ready, this, &TurnRunner::schedule, Qt::QueuedConnection);
    connect(m_spares.get(), &SparePool::lost, this, [this](const QString &why) {
        discardSpare(why);
        schedule();
    });
    connect(m_spares.get(), &SparePool::discarded, this,
            [this](const QString &name, const QString &why) {
                // A turn being planned to adopt it starts cold, in a slot of its own.
                for (bool &forSpare : m_planning)
                    forSpare = false;
                emit spareDiscarded(name, why);
            });
    connect(m_spares.get(), &SparePool::settled, this, &TurnRunner::prepareSpare);
    m_workers.setMaxThreadCount(maxWorkers);
    m_environment->submit = [this](const TurnRequest &request) -> Result<QString> {
        const auto turn = submit(request);
        if (!turn)
            return turn.error();
        return (*turn)->name();
    };
    connect(&m_cancelRequests, &CancelRequests::polled, this, &TurnRunner::onCancelRequests);
    m_questions = std::make_unique<EgressQuestions>(store, m_engine.mark());
    m_environment->questions = m_questions.get();
    m_planner = std::make_unique<TurnPlanner>(*m_environment);
    connect(m_planner.get(), &TurnPlanner::planned, this, &TurnRunner::onPlanned);
}

TurnRunner::~TurnRunner()
{
    // A start-up still running holds only its own shared state.
    m_startup.waitForFinished();
    // Turns tear down their own VM, network and proxy as they go; so do spares.
    m_turns.clear();
    m_spares.reset();
    m_environment->questions = nullptr;
}

void TurnRunner::becomeReady(HostStartup startup)
{
    m_environment->connection = std::move(startup.connection);
    m_environment->pool = startup.pool;
    m_environment->accelerator = startup.accelerator;
    m_startupReap = startup.reaped;
    m_planner->setSecrets(std::move(startup.secrets));
    m_ready = true;
    m_cancelRequests.start();
    QTimer::singleShot(0, this, &TurnRunner::schedule);
    // arizukoctl's runner ends with its one turn, before a prune after it.
    pruneLedger();
}

Result<std::unique_ptr<TurnRunner>> TurnRunner::startBlocking(store::Store &store,
                                                              RunnerSettings settings)
{
    auto startup = prepareHost(store, settings);
    if (!startup)
        return startup.error();
    auto runner = std::make_unique<TurnRunner>(store, std::move(settings));
    runner->becomeReady(std::move(*startup));
    return runner;
}

void TurnRunner::startInBackground()
{
    if (m_ready || m_startup.isRunning())
        return;
    const auto started = [this](Result<HostStartup> startup) {
        if (!startup)
            return emit failed(startup.error());
        becomeReady(std::move(*startup));
        emit ready();
    };
    m_startup =
        prepareHostInBackground(&m_workers, this, m_store, m_environment->settings, started);
}

QList<Turn *> TurnRunner::turns() const
{
    QList<Turn *> turns;
    for (const auto &turn : m_turns)
        turns << turn.get();
    return turns;
}

Result<Turn *> TurnRunner::submit(const TurnRequest &request)
{
    const Result<TurnRecord> record = recordQueuedTurn(m_store, m_records, request, m_engine);
    if (!record)
        return record.error();
    m_turns.push_back(std::make_unique<Turn>(*m_environment, *record, request));
    Turn *turn = m_turns.back().get();
    connect(turn, &Turn::phaseChanged, this,
            [this, turn](TurnState state) { emit turnPhaseChanged(turn, state); });
    connect(turn, &Turn::eventsReceived, this,
            [this, turn](const QList<TurnEventRecord> &events) { emit turnEvents(turn, events); });
    connect(turn, &Turn::networkDecision, this, [this, turn](const QJsonObject &decision) {
        emit turnNetworkDecision(turn, decision);
    });
    connect(turn, &Turn::finished, this, [this, turn] { emit turnFinished(turn); });
    // The slot stays taken until the turn's VM, filter and network are gone.
    connect(turn, &Turn::released, this, [this, turn] {
        // Destroyed later: the turn is still inside its own signal here.
        QTimer::singleShot(0, this, [this, turn, id = turn->id(), folder = turn->folder()] {
            // Cancelled while it was planned: the plan is dropped, and the
            // slot is free now.
            m_planning.remove(id);
            m_planner->drop(id);
            std::erase_if(m_turns, [turn](const auto &owned) { return owned.get() == turn; });
            schedule();
            // The folder's next prompt is the likeliest one.
            prepareSpare(folder);
            pruneLedger();
        });
    });
    emit turnQueued(turn);
    QTimer::singleShot(0, this, &TurnRunner::schedule);
    return turn;
}

void TurnRunner::pruneLedger()
{
    constexpr qint64 hourMs = 60 * 60 * 1000;
    if (m_ledgerPruned.isValid() && m_ledgerPruned.elapsed() < hourMs)
        return;
    m_ledgerPruned.start();
    store::runStoreWork(
        this, m_store,
        [](store::Store &store) { return ledger::Ledger(store).prune(store::nowTimestamp()); },
        [](const Result<qint64> &pruned) {
            if (!pruned)
                qWarning("egress ledger retention not applied: %s",
                         qPrintable(pruned.error().message));
        });
}

Result<void> TurnRunner::cancel(const QString &reference)
{
    const auto record = m_records.findLive(reference);
    if (!record)
        return record.error();
    for (const auto &turn : m_turns) {
        if (turn->id() == record->id) {
            turn->cancel(QStringLiteral("cancelled by the user"));
            return {};
        }
    }
    return m_records.requestCancel(record->id, store::nowTimestamp());
}

bool TurnRunner::topicBusy(const Turn &candidate)
{
    for (const auto &turn : m_turns) {
        const bool taken = turn->state() != TurnState::Queued || m_planning.contains(turn->id());
        if (turn.get() != &candidate && taken && turn->folder() == candidate.folder() &&
            turn->topic() == candidate.topic())
            return true;
    }
    // Another engine (the window while a script runs arizukoctl) may be
    // running a turn in the same topic.
    const auto engines =
        m_records.activeEnginesInTopic(candidate.folder(), candidate.topic(), candidate.id());
    return engines && anotherEngineAlive(*engines, m_engine.pid);
}

void TurnRunner::plan(Turn &turn, bool forSpare)
{
    m_planning.insert(turn.id(), forSpare);
    m_planner->plan({turn.id(), turn.folder(), turn.topic(), turn.agent(), turn.demoModel()});
}

void TurnRunner::onPlanned(const QString &turnId, const Result<TurnPlan> &plan)
{
    const bool forSpare = m_planning.take(turnId);
    const auto turn = std::find_if(m_turns.begin(), m_turns.end(),
                                   [&turnId](const auto &live) { return live->id() == turnId; });
    // Cancelled meanwhile: nothing of it starts, and its slot is free again.
    if (turn != m_turns.end() && (*turn)->state() == TurnState::Queued) {
        const Result<TurnPlan> ready =
            m_planner->takeObservedContext((*turn)->folder(), (*turn)->topic(), plan);
        if (forSpare)
            m_spares->startTurn(**turn, ready);
        else
            (*turn)->start(ready);
    }
    schedule();
}

void TurnRunner::schedule()
{
    if (!m_ready)
        return;
    renewConnectionIfClosed(m_environment->connection, m_environment->settings.libvirtUri);
    // A turn that ended holds its slot until it is released (torn down); a
    // spare holds one until it is adopted or discarded; a turn being planned
    // holds its own, or the spare's when it is to adopt it.
    // Starting a turn can end it at once; the runner erases a turn only
    // from a later event, but walk a copy so that no erase can meet this loop.
    int active = m_spares->hasSpare() ? 1 : 0;
    QList<QPointer<Turn>> queued;
    for (const auto &turn : m_turns) {
        if (turn->state() != TurnState::Queued || !m_planning.value(turn->id(), true))
            ++active;
        else
            queued << turn.get();
    }
    for (const QPointer<Turn> &turn : queued) {
        if (!turn || turn->state() != TurnState::Queued || m_planning.contains(turn->id()) ||
            topicBusy(*turn))
            continue;
        if (m_spares->isFor(turn->folder())) {
            // Still booting: it is ready (or lost) soon, and schedules again;
            // taken by a turn being planned: that one's plan decides.
            if (m_spares->isReady() && !spareClaimed())
                plan(*turn, true);
            continue;
        }
        // A spare never keeps a queued turn waiting: it yields its slot.
        if (active >= m_environment->settings.maxConcurrentTurns && m_spares->hasSpare() &&
            !spareClaimed()) {
            discardSpare(QStringLiteral("a queued turn of another folder needs its slot"));
            --active;
        }
        if (active >= m_environment->settings.maxConcurrentTurns)
            return;
        ++active;
        plan(*turn, false);
    }
}

bool TurnRunner::spareClaimed() const
{
    return m_planning.values().contains(true);
}

void TurnRunner::prepareSpare(const QString &folder)
{
    // Queued turns come first.
    if (m_ready && m_keepsSpares &&
        std::none_of(m_turns.begin(), m_turns.end(),
                     [](const auto &turn) { return turn->state() == TurnState::Queued; }))
        m_spares->prepare(folder, int(m_turns.size()));
}

void TurnRunner::suggestSpare(const QString &folder)
{
    if (m_ready && m_keepsSpares && m_environment->settings.warmStart)
        m_spares->settle(folder);
}

void TurnRunner::discardSpare(const QString &why)
{
    m_spares->discard(why);
}

QString TurnRunner::spareName() const
{
    return m_spares->spareName();
}

void TurnRunner::onCancelRequests(const QStringList &requested)
{
    bool waiting = false;
    for (const auto &turn : m_turns) {
        if (requested.contains(turn->id()))
            turn->cancel(QStringLiteral("cancelled by the user (arizukoctl cancel)"));
        waiting = waiting || turn->state() == TurnState::Queued;
    }
    if (waiting)
        schedule();
}

QList<libvirt::Ipv4Range> TurnRunner::subnetsInUse() const
{
    // A spare's /30, and those of spares still tearing down.
    QList<libvirt::Ipv4Range> ranges = m_spares->subnets();
    for (const auto &turn : m_turns) {
        if (const auto subnet = turn->subnet())
            ranges << *subnet;
    }
    return ranges;
}

} // namespace arizuko::turns
