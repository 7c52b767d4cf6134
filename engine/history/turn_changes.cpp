#include "history/turn_changes.h"

#include "audit/audit_log.h"
#include "core/actors.h"
#include "folders/folders.h"
#include "store/store.h"
#include "turn_records/turn_records.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace arizuko::history {

Result<HomeHistory> openFolderHistory(store::Store &store, const QString &folder,
                                      const SnapshotOptions &options)
{
    const auto home = folders::Folders(store, actors::history).home(folder);
    if (!home)
        return home.error();
    return HomeHistory::openExisting(store.dataDir(), home->id, options);
}

Result<HomeHistory> openTurnHistory(store::Store &store, const turns::TurnRecord &turn,
                                    const SnapshotOptions &options)
{
    return openFolderHistory(store, turn.folder, options);
}

Result<HistoryUse> folderHistoryUse(store::Store &store, const QString &folder,
                                    const SnapshotOptions &options)
{
    const auto history = openFolderHistory(store, folder, options);
    if (!history && history.error().code == u"history.none")
        return HistoryUse();
    if (!history)
        return history.error();
    return history->use();
}

Result<PruneReport> pruneFolderHistory(store::Store &store, const QString &folder,
                                       const SnapshotOptions &options)
{
    auto history = openFolderHistory(store, folder, options);
    if (!history && history.error().code == u"history.none")
        return PruneReport();
    if (!history)
        return history.error();
    return history->prune(options.retention);
}

QString historyUseText(const HistoryUse &use, const RetentionPolicy &policy)
{
    return QStringLiteral("%1 MiB on disk, %2 turn(s) (keeps the newest %3 within %4 MiB)")
        .arg(double(use.bytes) / (1 << 20), 0, 'f', 1)
        .arg(use.turns)
        .arg(policy.keepTurns)
        .arg(policy.sizeLimitBytes >> 20);
}

Result<TurnChanges> turnChanges(store::Store &store, const turns::TurnRecord &turn,
                                const SnapshotOptions &options, bool withDiff)
{
    const auto history = openTurnHistory(store, turn, options);
    if (!history)
        return history.error();
    auto changes = history->changes(turn.id, withDiff);
    if (!changes)
        return changes.error();
    turns::TurnRecords records(store);
    const auto live = records.live();
    if (!live)
        return live.error();
    QList<OverlappingTurn> kept;
    for (OverlappingTurn other : std::as_const(changes->overlapping)) {
        const bool running = std::any_of(live->begin(), live->end(), [&other](const auto &row) {
            return row.id == other.turnId;
        });
        if (!other.ended && !running)
            continue;
        const auto record = records.find(other.turnId);
        other.name = record ? record->name : other.turnId;
        kept << other;
    }
    changes->overlapping = kept;
    return changes;
}

QJsonObject undoReportJson(const UndoReport &report)
{
    QJsonArray conflicts;
    for (const UndoConflict &conflict : report.conflicts)
        conflicts.append(QJsonObject{{QStringLiteral("path"), conflict.path},
                                     {QStringLiteral("why"), conflict.why}});
    return {{QStringLiteral("turn"), report.turnId},
            {QStringLiteral("applied"), report.applied},
            {QStringLiteral("restored"), QJsonArray::fromStringList(report.restored)},
            {QStringLiteral("conflicts"), conflicts}};
}

Result<UndoReport> undoTurn(store::Store &store, const turns::TurnRecord &turn, UndoMode mode,
                            const SnapshotOptions &options, const QString &actor)
{
    auto history = openTurnHistory(store, turn, options);
    if (!history)
        return history.error();
    if (mode == UndoMode::Plan)
        return history->undo(turn.id, mode);
    // A live turn of the folder writes the same home.
    const auto live = turns::TurnRecords(store).live();
    if (!live)
        return live.error();
    for (const turns::TurnRecord &other : *live) {
        if (other.folder == turn.folder)
            return makeError(QStringLiteral("history.busy"),
                             QStringLiteral("turn %1 of folder '%2' is %3; undo once it has ended")
                                 .arg(other.name, other.folder, turns::turnStateName(other.state)));
    }
    audit::AuditLog audit(store);
    const auto report = history->undo(turn.id, mode);
    QJsonObject detail = report ? undoReportJson(*report)
                                : QJsonObject{{QStringLiteral("error"), report.error().message}};
    detail.insert(QStringLiteral("folder"), turn.folder);
    detail.insert(QStringLiteral("forced"), mode == UndoMode::Force);
    if (const auto recorded = audit.record(actor, QStringLiteral("turn.undo"), turn.id, detail);
        !recorded)
        return recorded.error();
    return report;
}

} // namespace arizuko::history
