#pragma once

// Cancelling a turn that another engine process runs (`arizukoctl cancel`
// while the window or `arizukoctl run` owns it): the request goes through
// the store, which the owning engine polls (CancelRequests), and the
// caller waits for the turn to end.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <chrono>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

class TurnRecords;

// The turn by id, id prefix or az-<name>, as it ended. Refuses a turn that
// already ended or whose engine is gone (the next engine start reaps it),
// and fails when it has not ended within `wait`.
Result<TurnRecord> cancelRemoteTurn(store::Store &store, const QString &reference,
                                    std::chrono::milliseconds wait = std::chrono::seconds(10));

// The owning engine's side: reads the requests for its turns every 250 ms.
// Each poll is also the runner's chance to see that another engine's turn
// which kept one of its turns queued has ended.
class CancelRequests final : public QObject
{
    Q_OBJECT

public:
    CancelRequests(TurnRecords &records, qint64 enginePid, QObject *parent = nullptr);
    void start() { m_poll.start(); }

signals:
    // The turns of this engine someone asked to cancel (maybe none).
    void polled(const QStringList &turnIds);

private:
    TurnRecords &m_records;
    qint64 m_enginePid;
    QTimer m_poll;
};

} // namespace arizuko::turns
