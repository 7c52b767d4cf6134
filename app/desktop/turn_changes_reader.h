#pragma once

// A turn's changes in its folder's home, read from the home's history
// (engine/history) for the window: the Changes tab and the transcript's
// Changes block. The reading opens a git repository and makes diffs, so it
// runs on a worker, never on the GUI thread.

#include "core/result.h"
#include "history/home_history.h"
#include "turn_records/turn_record.h"

#include <QJsonObject>
#include <QObject>
#include <QThreadPool>

namespace arizuko::store {
class Store;
}

namespace arizuko::desktop {

// What the saved settings say a snapshot records (for a reading or an undo).
Result<history::SnapshotOptions> savedSnapshotOptions(store::Store &store);
// The turn's changes with their diffs. Blocks: call it on a worker.
Result<history::TurnChanges> readTurnChanges(store::Store &store, const turns::TurnRecord &turn);
// "History of this folder's home: …" (history::historyUseText). Blocks.
Result<QString> readHistoryUse(store::Store &store, const QString &folder);
// What the window says beside a changed file, in the Changes tab and the
// transcript alike: why the history skipped its name, or that it holds the
// file by its size and time only; empty for any other file.
QString changeNote(const history::FileChange &change);

// Reads turns' changes one at a time on its own worker and hands each back
// as the transcript page's Changes item (transcript_items.h).
class TurnChangesReader final : public QObject
{
    Q_OBJECT

public:
    explicit TurnChangesReader(store::Store &store, QObject *parent = nullptr);
    // Waits for the reading under way (it uses the store); drops the queued.
    ~TurnChangesReader() override;

    void read(const turns::TurnRecord &turn);

signals:
    // Not emitted for a turn whose home has no history of it (yet).
    void itemRead(const QJsonObject &item);

private:
    store::Store &m_store;
    QThreadPool m_pool;
};

} // namespace arizuko::desktop
