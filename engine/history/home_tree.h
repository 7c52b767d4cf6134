#pragma once

// Writes a folder home's files into a git tree. The home is the agent's and
// hostile (docs/security-model.md): the walk goes one directory descriptor
// at a time with O_NOFOLLOW, records a symbolic link as a link and never
// follows it, never opens a file with a second hard link (it may be a file
// outside the home), skips FIFOs, sockets, devices and whatever is mounted
// from another filesystem, and records a file over the size limit by its
// size and modification time only, never reading it. A snapshot reads
// within a byte and a time budget: a file met once either ran out is
// recorded the same way, and the snapshot says which budget it was.

#include "core/result.h"
#include "history/history_pruning.h"
#include "history/snapshot_index.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <atomic>
#include <git2/oid.h>
#include <git2/types.h>

namespace arizuko::history {

struct SnapshotOptions
{
    SnapshotOptions() = default;
    SnapshotOptions(qint64 limit, bool includeGit)
        : fileLimit(limit)
        , includeGitDirectory(includeGit)
    {}

    qint64 fileLimit = 50 * 1024 * 1024; // bytes; larger files are not stored
    // Every entry named .git (a work tree's, a submodule's): recorded
    // (under an escaped name, tree_names.h) or left out unlisted.
    bool includeGitDirectory = false;
    // What one snapshot may read (bytes of files under the limit) and how
    // long it may read: a guest's 10,000 sparse files just under the limit
    // cost a snapshot this much, not their sum. Past either, the files left
    // are recorded by size and time, and read by a later snapshot.
    qint64 byteBudget = qint64(1) << 30;
    qint64 timeBudgetMs = 30 * 1000;
    // Set from another thread to end a snapshot at once (history.stopped):
    // the engine is closing and will not wait for the walk.
    const std::atomic<bool> *stop = nullptr;
    // Applied after each snapshot after a turn (TurnHistoryRecorder).
    RetentionPolicy retention;
};

// Why a snapshot recorded a file under the limit without reading it.
enum class BudgetLimit
{
    None,
    Bytes,
    Time,
};

// A name in the home the snapshot left out, and why ("fifo", "socket",
// "device", "hard link", "other filesystem", "too deep", "unreadable", "name").
struct SkippedEntry
{
    QByteArray path;
    QString why;
};

// A file recorded as a placeholder blob naming its size and time: over the
// limit, or met once the snapshot's budget had run out.
struct UnstoredFile
{
    QByteArray path;
    qint64 size = 0;
    BudgetLimit budget = BudgetLimit::None; // None: over the size limit
};

struct HomeTree
{
    git_oid tree{};
    QList<SkippedEntry> skipped;
    QList<UnstoredFile> unstored;
    int filesRead = 0;   // opened and hashed
    int filesReused = 0; // taken from the index unread
    qint64 bytesRead = 0;
    // The first budget that ran out, and how many files it left unread.
    BudgetLimit budget = BudgetLimit::None;
    int budgetFiles = 0;
};

// `home` is an open directory descriptor of the home (folders::Folders::
// openHome). `index` is read and replaced with what this walk saw.
Result<HomeTree> writeHomeTree(git_repository *repository, int home, const SnapshotOptions &options,
                               SnapshotIndex &index);

// The placeholder's first line; a blob starting with it was never stored.
inline constexpr char unstoredMarker[] = "arizuko-history: not stored\n";
// The placeholder's line naming the budget, when one left the file unread.
inline constexpr char budgetMarker[] = "not read: snapshot budget";

// "bytes", "time" (as the history's metadata names them), or empty.
QString budgetLimitName(BudgetLimit limit);
// A sentence for the user: what the budget was and what it left unread.
QString budgetNote(BudgetLimit limit, int files, const SnapshotOptions &options);

} // namespace arizuko::history
