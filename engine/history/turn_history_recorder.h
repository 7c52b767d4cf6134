#pragma once

// Keeps the home history of every turn a runner runs: a snapshot when the
// turn starts preparing (before its VM exists) and one when its VM is gone.
// The agent does not start before the first is taken: the turn holds its
// agent until the snapshot reports, and fails, saying why, if it failed.
// It only listens to the runner's and the turns' signals; the snapshots run
// on a thread of its own, one at a time, never on the caller's thread.

#include "core/result.h"
#include "history/home_tree.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QThreadPool>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {
class Turn;
class TurnRunner;
struct RunnerSettings;
} // namespace arizuko::turns

namespace arizuko::history {

// What the saved settings say a snapshot records.
SnapshotOptions snapshotOptions(const turns::RunnerSettings &settings);

class TurnHistoryRecorder final : public QObject
{
    Q_OBJECT

public:
    TurnHistoryRecorder(store::Store &store, const SnapshotOptions &options,
                        QObject *parent = nullptr);
    // Waits for the snapshots already queued: a turn's history is complete
    // when the engine exits.
    ~TurnHistoryRecorder() override;

    // Records every turn `runner` queues from now on.
    void watch(turns::TurnRunner &runner);
    // Records `turn`, which has not started yet.
    void record(turns::Turn *turn);

signals:
    // The snapshot after the turn is recorded: its changes can be read.
    void changesRecorded(const QString &turnId);
    void recordFailed(const QString &turnId, const arizuko::Error &error);

private:
    struct Job;
    void enqueue(const Job &job);
    void reported(const Job &job, const Result<void> &recorded);

    store::Store &m_store;
    SnapshotOptions m_options;
    QSet<QString> m_started; // turns whose snapshot before was queued
    // Turns whose agent waits for their snapshot before, by id.
    QHash<QString, QPointer<turns::Turn>> m_held;
    QThreadPool m_pool;
};

} // namespace arizuko::history
