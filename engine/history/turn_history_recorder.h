#pragma once

// Keeps the home history of every turn a runner runs: a snapshot when the
// turn starts preparing (before its VM exists) and one when its VM is gone.
// The agent does not start before the first is taken: the runner's agent
// gate (turns/agent_gate.h) holds it until the snapshot reports, and the
// turn fails, saying why, if it failed.
// It only listens to the runner's and the turns' signals; the snapshots run
// on a pool of threads, never on the caller's thread: those of one home
// one at a time and in order, those of different homes side by side, so
// one folder's slow snapshot never delays another folder's turn.

#include "core/result.h"
#include "history/home_tree.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QThreadPool>
#include <atomic>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {
class AgentGate;
class Turn;
class TurnRunner;
struct RunnerSettings;
} // namespace arizuko::turns

namespace arizuko::history {

// What the saved settings say a snapshot records.
SnapshotOptions snapshotOptions(const turns::RunnerSettings &settings);
// The same, read from the store's saved settings (a reading or an undo).
Result<SnapshotOptions> savedSnapshotOptions(store::Store &store);

class TurnHistoryRecorder final : public QObject
{
    Q_OBJECT

public:
    TurnHistoryRecorder(store::Store &store, const SnapshotOptions &options,
                        QObject *parent = nullptr);
    // Waits for the snapshots already queued, so a turn's history is
    // complete when the engine exits; but for a bounded time (the time
    // budget and a grace): then it stops the rest (history.stopped).
    ~TurnHistoryRecorder() override;

    // Records every turn `runner` queues from now on.
    void watch(turns::TurnRunner &runner);
    // Records `turn`, which has not started yet, holding its agent at `gate`.
    void record(turns::Turn *turn, turns::AgentGate &gate);

signals:
    // The snapshot after the turn is recorded: its changes can be read.
    void changesRecorded(const QString &turnId);
    void recordFailed(const QString &turnId, const arizuko::Error &error);
    // A snapshot of the turn ran out of its budget: `note` says which and
    // what it left unread (those files are in its changes, not stored).
    void budgetRanOut(const QString &turnId, bool after, const QString &note);

private:
    struct Job;
    void enqueue(const Job &job);
    // Runs the jobs of one home on a worker until its queue is empty.
    void drain(const QString &homeId);
    void reported(const Job &job, const Result<QString> &recorded);

    store::Store &m_store;
    SnapshotOptions m_options;
    std::atomic<bool> m_stop{false};
    // The snapshots waiting, by home id; a home with a list here has a
    // worker taking them (guarded by m_queueMutex: workers pop).
    QMutex m_queueMutex;
    QHash<QString, QList<Job>> m_queues;
    QSet<QString> m_started; // turns whose snapshot before was queued
    // The gates of turns whose agent waits for their snapshot before, by id.
    QHash<QString, QPointer<turns::AgentGate>> m_held;
    QThreadPool m_pool;
};

} // namespace arizuko::history
