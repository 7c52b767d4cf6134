#pragma once

// A turn's changes and its undo, for the two front-ends: the history of
// the home the turn's folder has, and an undo refused while a turn of the
// folder is live and written to the audit log (turn.undo).

#include "core/result.h"
#include "history/home_history.h"
#include "turn_records/turn_record.h"

#include <QJsonObject>

namespace arizuko::store {
class Store;
}

namespace arizuko::history {

// The history of the folder home `turn` ran in; history.none when it has
// none yet.
Result<HomeHistory> openTurnHistory(store::Store &store, const turns::TurnRecord &turn,
                                    const SnapshotOptions &options);

// The history of `folder`'s home; history.none when it has none yet.
Result<HomeHistory> openFolderHistory(store::Store &store, const QString &folder,
                                      const SnapshotOptions &options);
// What the history of `folder`'s home takes on disk (nothing: none yet).
Result<HistoryUse> folderHistoryUse(store::Store &store, const QString &folder,
                                    const SnapshotOptions &options);
// options.retention applied to the history of `folder`'s home now.
Result<PruneReport> pruneFolderHistory(store::Store &store, const QString &folder,
                                       const SnapshotOptions &options);
// "1.5 MiB on disk, 3 turn(s) (keeps the newest 200 within 2048 MiB)"
QString historyUseText(const HistoryUse &use, const RetentionPolicy &policy);

// HomeHistory::changes of `turn`, with the turns that overlapped it named
// (a turn without a snapshot after kept only while it is queued or running).
Result<TurnChanges> turnChanges(store::Store &store, const turns::TurnRecord &turn,
                                const SnapshotOptions &options, bool withDiff);

// {turn, applied, restored: [path], conflicts: [{path, why}]}
QJsonObject undoReportJson(const UndoReport &report);

// HomeHistory::undo on the turn's home. Apply and Force are refused with
// history.busy while a turn of the folder is queued or running, and are
// audited (turn.undo, by `actor`) whatever their outcome.
Result<UndoReport> undoTurn(store::Store &store, const turns::TurnRecord &turn, UndoMode mode,
                            const SnapshotOptions &options, const QString &actor);

} // namespace arizuko::history
