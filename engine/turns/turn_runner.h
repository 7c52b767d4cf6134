#pragma once

// Runs agent turns: at most a configured number at once, the rest queued,
// never two at once in one topic. Owns the libvirt connection (so every VM
// dies with the engine), defines the nwfilter and reaps what dead engines
// left behind when it starts. Re-emits every turn's phase, events and
// network decisions, so a view subscribes once.

#include "core/result.h"
#include "turn_records/turn_records.h"
#include "turns/engine_process.h"
#include "turns/runner_settings.h"
#include "turns/spare_pool.h"
#include "turns/turn.h"
#include "turns/turn_reaper.h"
#include "turns/turn_request.h"

#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace arizuko::store {
class Store;
}
namespace arizuko::secrets {
class SecretStore;
}
namespace arizuko::agent {
struct SessionFileCheck;
}

namespace arizuko::turns {

class TurnRunner final : public QObject
{
    Q_OBJECT

public:
    // A runner that is not started yet: turns submitted now stay queued
    // until startInBackground() has made it ready.
    TurnRunner(store::Store &store, RunnerSettings settings, QObject *parent = nullptr);
    // A ready runner: prepareHost() on the calling thread, which waits (for
    // arizukoctl). Fails with advice when libvirt is not reachable or the
    // settings are wrong.
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
    struct Startup;
    struct PlanDraft;
    struct HomeFiles;
    // A turn whose plan waits for its home's files, read on a worker.
    struct Planning
    {
        QObject *reading = nullptr; // the read's watcher: which read this is
        // It is to adopt the spare: the spare's slot is the one it takes.
        bool forSpare = false;
    };
    // Connects to libvirt, defines the nwfilter, decides KVM or TCG (once,
    // cached), reaps orphans and opens the secrets: what the runner needs
    // before it runs turns. Blocks.
    static Result<Startup> prepareHost(store::Store &store, const RunnerSettings &settings);
    // Takes over what prepareHost() made and starts scheduling.
    void becomeReady(Startup startup);
    void schedule();
    bool topicBusy(const Turn &candidate);
    // Plans `turn` and then starts it, cold or in the spare: what the store
    // says now, its home's files (skills, the session file: up to 256 MiB,
    // and Codex's session tree) on a worker, then the rest back here. The
    // engine thread never waits on the files; the turn holds its slot and
    // its topic meanwhile, and one cancelled meanwhile is not started.
    void beginPlan(Turn &turn, bool forSpare);
    Result<PlanDraft> planFromStore(const Turn &turn);
    Result<TurnPlan> finishPlan(const Turn &turn, PlanDraft draft, const Result<HomeFiles> &files);
    void startPlanned(Turn &turn, bool forSpare, const Result<TurnPlan> &plan);
    bool planningOwnSlot(const Turn &turn) const;
    bool spareClaimed() const;
    // What a spare for `folder` is made with (spare_pool.h).
    Result<SpareBasis> spareBasis(const QString &folder);
    // Starts `turn` in the spare of its folder when its plan matches what the
    // spare was made with; otherwise records why, discards the spare and
    // starts it cold in the slot the spare held.
    void startInSpare(Turn &turn, const Result<TurnPlan> &turnPlan);
    // Why `turn` cannot use the spare's started agent (empty: it can).
    QString prestartRefusal(const Turn &turn, const TurnPlan &plan);
    // The agent a spare of `folder` starts ahead of its prompt, if any.
    std::optional<AgentKind> agentToStartAhead(const QString &folder);
    Result<void> planSession(const Turn &turn, const QString &earlierAgent, PlanDraft &draft);
    Result<void> planSessionFile(const Turn &turn, const agent::SessionFileCheck &check,
                                 PlanDraft &draft);
    // Acts on what other processes wrote: cancel requests for our turns,
    // and the end of another engine's turn that kept one of ours queued.
    void pollStore();
    QList<libvirt::Ipv4Range> subnetsInUse() const;

    store::Store &m_store;
    TurnRecords m_records;
    QThreadPool m_workers;
    std::unique_ptr<TurnEnvironment> m_environment;
    std::unique_ptr<secrets::SecretStore> m_secrets; // see Startup::secrets
    std::vector<std::unique_ptr<Turn>> m_turns; // live turns, in submission order
    QHash<QString, Planning> m_planning;        // by turn id
    // At most one spare; it holds a concurrency slot until a turn adopts it
    // or it is discarded. After the turns on destruction: they may hold
    // machines it made.
    std::unique_ptr<SparePool> m_spares;
    bool m_keepsSpares = false;
    QTimer m_storePoll;
    ReapReport m_startupReap;
    EngineProcess m_engine;
    std::shared_ptr<std::optional<Result<Startup>>> m_startup; // shared with the worker
    QFutureWatcher<void> m_startupWatcher;
    bool m_ready = false;
};

} // namespace arizuko::turns
