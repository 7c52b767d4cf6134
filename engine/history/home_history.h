#pragma once

// The history of one folder home: a bare git repository written with
// libgit2 at <data>/history/<home id>.git, beside the homes and never inside
// one, so no guest can reach or rewrite it. A snapshot before each turn and
// one after it make the turn's changes a diff; user edits between turns are
// their own commit at the next turn's start. docs/turns.md, "Home history".

#include "core/result.h"
#include "history/git_handles.h"
#include "history/home_tree.h"

#include <QList>
#include <QString>
#include <memory>

namespace arizuko::history {

// What names a turn in its snapshots' messages.
struct TurnLabel
{
    QString turnId;
    QString topic;
    QString prompt; // its first line goes into the message
};

enum class ChangeKind
{
    Added,
    Modified,
    Deleted,
    Skipped
};
QString changeKindName(ChangeKind kind);

struct FileChange
{
    QString path;
    ChangeKind kind = ChangeKind::Modified;
    // false: recorded by size and time on either side (over the size
    // limit, or left unread by the snapshot's budget).
    bool stored = true;
    QString why;  // Skipped: why it was left out; unstored by a budget: that
    QString diff; // unified diff, when asked for
    // Asked for but left out: the changes' diffs reached their total cap.
    bool diffOmitted = false;
};

// Another turn of the same home that ran while this one did, so that some
// of `files` may be its writes (both share the home). Told from the order
// of the snapshots: its before was taken before this turn's after, and its
// after (if any) after this turn's before, with the home changed between.
struct OverlappingTurn
{
    QString turnId;
    QString name; // filled by the front-ends' turnChanges (turn_changes.h)
    // false: it has no snapshot after (still running, or its end was never
    // recorded: turnChanges keeps only those still live).
    bool ended = true;
};

struct TurnChanges
{
    QString turnId;
    QList<FileChange> files;
    QList<OverlappingTurn> overlapping;
    // Sentences for the user: a budget the snapshot after the turn ran
    // out of, diffs left out at the total cap.
    QStringList notes;
};

// The diffs one changes() holds, in characters, all files together: past
// it, files are listed without their diff, and a note says so.
inline constexpr qsizetype maxTotalDiffChars = 8 * 1024 * 1024;

enum class UndoMode
{
    Plan,  // say what would be restored and what conflicts; write nothing
    Apply, // restore what did not change since; leave conflicts alone
    Force, // restore conflicts too
};

struct UndoConflict
{
    QString path;
    QString why;
};

struct UndoReport
{
    QString turnId;
    QStringList restored; // Plan: would be restored
    QList<UndoConflict> conflicts;
    bool applied = false;
};

class HomeHistory
{
public:
    // <data>/history/<home id>.git
    static QString repositoryPath(const QString &dataDir, const QString &homeId);
    // Opens the home's history, creating the repository when missing.
    // <data>/history must be the engine's own directory, reached through
    // no link.
    static Result<HomeHistory> open(const QString &dataDir, const QString &homeId,
                                    const SnapshotOptions &options);
    // Opens an existing history only: history.none when the home has none.
    static Result<HomeHistory> openExisting(const QString &dataDir, const QString &homeId,
                                            const SnapshotOptions &options);

    // The home as it is when the turn starts; a home that changed since the
    // last snapshot becomes its own commit first.
    Result<void> recordBefore(const TurnLabel &turn);
    // The home as the turn left it.
    Result<void> recordAfter(const TurnLabel &turn);

    // Files the turn added, modified, deleted, and names it left that the
    // history skipped; history.no-turn when either snapshot is missing.
    Result<TurnChanges> changes(const QString &turnId, bool withDiff) const;
    // Restores the files the turn changed to their state before it. A file
    // changed since the turn (by a later turn or the user) is a conflict,
    // left alone unless `mode` is Force; a file over the size limit cannot
    // be restored. The result is recorded as a commit of its own.
    Result<UndoReport> undo(const QString &turnId, UndoMode mode);

    // What the history holds and takes on disk.
    Result<HistoryUse> use() const;
    // Applies `policy` (history_pruning.h) under the history's lock.
    Result<PruneReport> prune(const RetentionPolicy &policy);

    const QString &path() const { return m_path; }
    // What the last snapshot of this object read and reused (tests, bench).
    struct SnapshotStats
    {
        int filesRead = 0;
        int filesReused = 0;
        qint64 bytesRead = 0;
        QString budgetNote; // budgetNote(): empty when it read everything
    };
    SnapshotStats lastSnapshot() const;

private:
    struct State;
    HomeHistory(QString dataDir, QString homeId, QString path, SnapshotOptions options,
                std::shared_ptr<State> state);
    static Result<HomeHistory> openRepository(const QString &dataDir, const QString &homeId,
                                              const SnapshotOptions &options, bool create);

    // The home's tree now, committed on top of the history when it differs
    // from the last commit; the commit's id.
    Result<git_oid> snapshot(const QString &subject, const QString &body);
    Result<void> setReference(const QString &turnId, const char *which, const git_oid &commit);
    Result<git_oid> turnCommit(const QString &turnId, const char *which) const;
    // The turns whose snapshots interleave with [before, after].
    Result<QList<OverlappingTurn>> overlappingTurns(const QString &turnId, const git_oid &before,
                                                    const git_oid &after) const;

    QString m_dataDir;
    QString m_homeId;
    QString m_path;
    SnapshotOptions m_options;
    std::shared_ptr<State> m_state;
};

} // namespace arizuko::history
