#pragma once

// Runs agent turns: at most a configured number at once, the rest queued,
// never two at once in one topic. Owns the libvirt connection (so every VM
// dies with the engine), defines the nwfilter and reaps what dead engines
// left behind when it starts. Re-emits every turn's phase, events and
// network decisions, so a view subscribes once.

#include "core/result.h"
#include "turn_records/turn_records.h"
#include "turns/egress_questions.h"
#include "turns/engine_process.h"
#include "turns/host_startup.h"
#include "turns/remote_cancel.h"
#include "turns/runner_settings.h"
#include "turns/spare_pool.h"
#include "turns/turn.h"
#include "turns/turn_planner.h"
#include "turns/turn_reaper.h"
#include "turns/turn_request.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

class TurnRunner final : public QObject
{
    Q_OBJECT

public:
    // A runner that is not started yet: turns submitted now stay queued
    // until startInBackground() has made it ready.
    TurnRunner(store::Store &store, RunnerSettings settings, QObject *parent = nullptr);
    // A ready runner: prepareHost() on the calling thread, which waits (the
    // runner's own tests; both front-ends start through EngineImpl). Fails
    // with advice when libvirt is not reachable or the settings are wrong.
    static Result<std::unique_ptr<TurnRunner>> startBlocking(store::Store &store,
                                                             RunnerSettings settings);
    ~TurnRunner() override;

    // prepareHost() on a worker thread: the calling thread (a window's)
    // never waits for libvirt. Ends in ready() or failed(); calling it again
    // after a failure retries.
    void startInBackground();
    bool isReady() const { return m_ready; }

    // Records the turn as queued and starts it as soon as a slot and its
    // topic are free. The folder must exist; the topic is created if new.
    Result<Turn *> submit(const TurnRequest &request);
    // Cancels a turn of this engine (queued or running), or asks the engine
    // that runs it (through the store) to cancel it.
    Result<void> cancel(const QString &reference);

    // Warm start (spare_pool.h), for a runner that outlives its turns (the
    // window's); arizukoctl's one-shot runner never keeps a spare.
    void setKeepsSpares(bool keeps) { m_keepsSpares = keeps; }
    // Boots a guest for the next turn of `folder` ahead of its prompt, when
    // the warm-start setting is on, the runner keeps spares, no turn is
    // queued and a slot is free. At most one spare: one for another folder
    // is torn down.
    void prepareSpare(const QString &folder);
    // The folder the user looks at: prepareSpare() once the user stays
    // there (SparePool::settle), so a click in the tree boots no VM.
    void suggestSpare(const QString &folder);
    // Tears the spare down (in the background), if there is one.
    void discardSpare(const QString &why);
    // The spare's name while one is being made or waits; empty otherwise.
    QString spareName() const;

    const host::AcceleratorChoice &accelerator() const { return m_environment->accelerator; }
    const ReapReport &startupReap() const { return m_startupReap; }
    TurnRecords &records() { return m_records; }
    // Where what must happen before a turn's agent starts holds it (the
    // home history's snapshot before, agent_gate.h).
    AgentGate &agentGate() { return m_environment->agentGate; }
    // The open questions of this engine's turns' proxies.
    EgressQuestions &questions() { return *m_questions; }
    QList<Turn *> turns() const;

signals:
    void ready();
    void failed(const arizuko::Error &error);
    void turnQueued(arizuko::turns::Turn *turn);
    void turnPhaseChanged(arizuko::turns::Turn *turn, arizuko::turns::TurnState state);
    // One batch per event-loop pass of the turn, already stored.
    void turnEvents(arizuko::turns::Turn *turn,
                    const QList<arizuko::turns::TurnEventRecord> &events);
    void turnNetworkDecision(arizuko::turns::Turn *turn, const QJsonObject &decision);
    void turnFinished(arizuko::turns::Turn *turn);
    // The spare's guest is booted behind its verified filter.
    void spareReady(const QString &name, const QString &folder);
    // The spare is gone unused: why (stale, yielded, lost, too old).
    void spareDiscarded(const QString &name, const QString &why);

private:
    // Takes over what the host's start-up made and starts scheduling.
    void becomeReady(HostStartup startup);
    void schedule();
    bool topicBusy(const Turn &candidate);
    // Plans `turn` on a worker (turn_planner.h) and then starts it, cold or
    // in the spare. The turn holds its slot (or the spare's, `forSpare`)
    // and its topic meanwhile; one cancelled meanwhile is not started.
    void plan(Turn &turn, bool forSpare);
    void onPlanned(const QString &turnId, const Result<TurnPlan> &plan);
    bool spareClaimed() const;
    // Acts on what other processes wrote: cancel requests for our turns,
    // and the end of another engine's turn that kept one of ours queued.
    void onCancelRequests(const QStringList &requested);
    QList<libvirt::Ipv4Range> subnetsInUse() const;
    // Applies each folder's egress ledger retention on a worker, when the
    // runner is ready and after a turn ends, at most once an hour.
    void pruneLedger();

    store::Store &m_store;
    TurnRecords m_records;
    QThreadPool m_workers;
    std::unique_ptr<TurnEnvironment> m_environment;
    std::vector<std::unique_ptr<Turn>> m_turns; // live turns, in submission order
    std::unique_ptr<TurnPlanner> m_planner;
    // Outlives the turns: the destructor clears them first.
    std::unique_ptr<EgressQuestions> m_questions;
    // The turns being planned, by id: whether each is to adopt the spare
    // (then the spare's slot is the one it takes).
    QHash<QString, bool> m_planning;
    // At most one spare; it holds a concurrency slot until a turn adopts it
    // or it is discarded. After the turns on destruction: they may hold
    // machines it made.
    std::unique_ptr<SparePool> m_spares;
    bool m_keepsSpares = false;
    ReapReport m_startupReap;
    EngineProcess m_engine;
    CancelRequests m_cancelRequests;
    QFuture<void> m_startup; // prepareHost() on a worker
    bool m_ready = false;
    QElapsedTimer m_ledgerPruned;
};

} // namespace arizuko::turns
