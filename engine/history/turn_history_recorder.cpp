#include "history/turn_history_recorder.h"

#include "audit/audit_log.h"
#include "core/actors.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "store/store.h"
#include "turns/agent_gate.h"
#include "turns/runner_settings.h"
#include "turns/turn.h"
#include "turns/turn_runner.h"

#include <QJsonObject>
#include <QtConcurrent>
#include <algorithm>
#include <limits>

namespace arizuko::history {
namespace {

// Snapshots are mostly waiting on the disk; more homes than this at once
// queue for a thread, each still in order.
constexpr int snapshotThreads = 4;
// How long the destructor lets queued snapshots run beyond one time budget
// (the walk of names, the commit) before it stops them.
constexpr int closingGraceMs = 30 * 1000;

} // namespace

SnapshotOptions snapshotOptions(const turns::RunnerSettings &settings)
{
    SnapshotOptions options;
    options.fileLimit = settings.historyFileLimitBytes;
    options.includeGitDirectory = settings.historyIncludesGit;
    options.retention = {settings.historyKeepTurns, settings.historySizeLimitBytes};
    return options;
}

Result<SnapshotOptions> savedSnapshotOptions(store::Store &store)
{
    const auto settings = turns::RunnerSettings::load(store);
    if (!settings)
        return settings.error();
    return snapshotOptions(*settings);
}

struct TurnHistoryRecorder::Job
{
    TurnLabel label;
    QString homeId;
    bool after = false;
};

TurnHistoryRecorder::TurnHistoryRecorder(store::Store &store, const SnapshotOptions &options,
                                         QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_options(options)
{
    m_options.stop = &m_stop;
    m_pool.setMaxThreadCount(snapshotThreads);
}

TurnHistoryRecorder::~TurnHistoryRecorder()
{
    if (!m_pool.waitForDone(int(std::min<qint64>(m_options.timeBudgetMs + closingGraceMs,
                                                 std::numeric_limits<int>::max())))) {
        m_stop = true;
        m_pool.waitForDone();
    }
}

void TurnHistoryRecorder::watch(turns::TurnRunner &runner)
{
    connect(&runner, &turns::TurnRunner::turnQueued, this,
            [this, &runner](turns::Turn *turn) { record(turn, runner.agentGate()); });
}

void TurnHistoryRecorder::record(turns::Turn *turn, turns::AgentGate &gate)
{
    const Result<folders::Home> home =
        folders::Folders(m_store, actors::history).home(turn->folder());
    if (!home) {
        emit recordFailed(turn->id(), home.error());
        return;
    }
    const Job job{{turn->id(), turn->topic(), turn->record().prompt}, home->id, false};
    // Preparing comes before the turn's VM is made; the snapshot runs
    // while the VM boots, and the agent is held until it is taken
    // (docs/turns.md, "Home history", on the ordering). Connected directly:
    // the hold is in place before the turn goes on.
    connect(turn, &turns::Turn::phaseChanged, this,
            [this, gate = QPointer<turns::AgentGate>(&gate), job](turns::TurnState state) {
                if (state != turns::TurnState::Preparing || m_started.contains(job.label.turnId))
                    return;
                m_started.insert(job.label.turnId);
                m_held.insert(job.label.turnId, gate);
                gate->hold(job.label.turnId);
                enqueue(job);
            });
    // After the VM is gone: released in a long-lived runner; a runner that
    // is destroyed with its turns (arizukoctl's) tears them down in their
    // destructors, so the turn's destruction says the same.
    const auto after = [this, job] {
        if (!m_started.remove(job.label.turnId))
            return;
        Job last = job;
        last.after = true;
        enqueue(last);
    };
    connect(turn, &turns::Turn::released, this, after);
    connect(turn, &QObject::destroyed, this, after);
}

void TurnHistoryRecorder::enqueue(const Job &job)
{
    QMutexLocker lock(&m_queueMutex);
    const auto queue = m_queues.find(job.homeId);
    if (queue != m_queues.end()) {
        queue->append(job); // its worker takes it, after those before it
        return;
    }
    m_queues.insert(job.homeId, {job});
    // The destructor waits for the pool, so `this` outlives every worker.
    (void)QtConcurrent::run(&m_pool, [this, homeId = job.homeId] { drain(homeId); });
}

void TurnHistoryRecorder::drain(const QString &homeId)
{
    for (;;) {
        Job job;
        {
            QMutexLocker lock(&m_queueMutex);
            QList<Job> &queue = m_queues[homeId];
            if (queue.isEmpty()) {
                m_queues.remove(homeId);
                return;
            }
            job = queue.takeFirst();
        }
        // The budget's note, empty when the snapshot read everything.
        Result<QString> recorded = [&]() -> Result<QString> {
            auto history = HomeHistory::open(m_store.dataDir(), job.homeId, m_options);
            if (!history)
                return history.error();
            const Result<void> done =
                job.after ? history->recordAfter(job.label) : history->recordBefore(job.label);
            if (!done)
                return done.error();
            const QString note = history->lastSnapshot().budgetNote;
            // After the turn: the oldest turns go when the policy says so.
            if (const auto pruned = job.after ? history->prune(m_options.retention)
                                              : Result<PruneReport>(PruneReport());
                !pruned)
                (void)audit::AuditLog(m_store).record(
                    actors::history, QStringLiteral("history.prune-failed"), job.label.turnId,
                    {{QStringLiteral("error"), pruned.error().message}});
            return note;
        }();
        if (!recorded) {
            // The worker's own store connection (one per thread).
            (void)audit::AuditLog(m_store).record(
                actors::history, QStringLiteral("history.failed"), job.label.turnId,
                {{QStringLiteral("snapshot"),
                  job.after ? QStringLiteral("after") : QStringLiteral("before")},
                 {QStringLiteral("error"), recorded.error().message}});
        }
        QMetaObject::invokeMethod(
            this, [this, job, recorded] { reported(job, recorded); }, Qt::QueuedConnection);
    }
}

void TurnHistoryRecorder::reported(const Job &job, const Result<QString> &recorded)
{
    const QString &turnId = job.label.turnId;
    if (!job.after) {
        // Without its snapshot before, the turn's changes could not be
        // told from what was there: the agent does not start.
        if (!recorded)
            m_started.remove(turnId);
        if (const QPointer<turns::AgentGate> gate = m_held.take(turnId))
            gate->open(turnId,
                       recorded.ok()
                           ? Result<void>()
                           : Result<void>(makeError(
                                 QStringLiteral("history.before-failed"),
                                 QStringLiteral("the snapshot of the home before the turn failed, "
                                                "so its agent was not started: %1")
                                     .arg(recorded.error().message))));
    }
    if (!recorded) {
        emit recordFailed(turnId, recorded.error());
        return;
    }
    if (!recorded->isEmpty())
        emit budgetRanOut(turnId, job.after, *recorded);
    if (job.after)
        emit changesRecorded(turnId);
}

} // namespace arizuko::history
