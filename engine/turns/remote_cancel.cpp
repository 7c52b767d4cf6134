#include "turns/remote_cancel.h"

#include "store/timestamp.h"
#include "turn_records/turn_records.h"
#include "turns/engine_process.h"

#include <QDeadlineTimer>
#include <QThread>

namespace arizuko::turns {

Result<TurnRecord> cancelRemoteTurn(store::Store &store, const QString &reference,
                                    std::chrono::milliseconds wait)
{
    TurnRecords records(store);
    const auto turn = records.findLive(reference);
    if (!turn)
        return turn.error();
    const EngineProcess owner{turn->enginePid, turn->engineStarted};
    if (!owner.isAlive())
        return makeError(
            QStringLiteral("turns.owner-gone"),
            QStringLiteral("the engine that ran turn %1 is gone (pid %2); the next engine start "
                           "reaps its VM, network and proxy and marks it interrupted")
                .arg(turn->name)
                .arg(turn->enginePid));
    if (const Result<void> requested = records.requestCancel(turn->id, store::nowTimestamp());
        !requested)
        return requested.error();

    // The owner polls for requests every 250 ms and tears down at once.
    const QDeadlineTimer deadline(wait);
    while (!deadline.hasExpired()) {
        const auto now = records.find(turn->id);
        if (now && isTerminal(now->state))
            return *now;
        QThread::msleep(50);
    }
    return makeError(QStringLiteral("turns.cancel-timeout"),
                     QStringLiteral("asked to cancel turn %1, but it has not ended within %2 s")
                         .arg(turn->name)
                         .arg(std::chrono::duration_cast<std::chrono::seconds>(wait).count()));
}

CancelRequests::CancelRequests(TurnRecords &records, qint64 enginePid, QObject *parent)
    : QObject(parent)
    , m_records(records)
    , m_enginePid(enginePid)
{
    m_poll.setInterval(250);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (const Result<QStringList> requested = m_records.cancelRequested(m_enginePid))
            emit polled(*requested);
    });
}

} // namespace arizuko::turns
