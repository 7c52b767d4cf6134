#pragma once

// Keeps a home's history within its retention policy: the oldest turns'
// snapshots are dropped (the history's line is rewritten to start at the
// oldest turn kept, and the objects nothing kept names are deleted), so a
// guest that writes and deletes content every turn cannot fill the host's
// disk. docs/turns.md, "Home history", on the policy and its defaults.

#include "core/result.h"

#include <QString>
#include <git2/types.h>

namespace arizuko::history {

// The history's one line of commits.
inline constexpr char historyBranch[] = "refs/heads/home";

struct RetentionPolicy
{
    int keepTurns = 200;                     // the newest turns kept
    qint64 sizeLimitBytes = qint64(2) << 30; // on disk; at least one turn is kept
};

// What a home's history holds and takes on disk.
struct HistoryUse
{
    qint64 bytes = 0; // allocated on disk, the whole repository
    int turns = 0;    // turns with a snapshot before
};

struct PruneReport
{
    HistoryUse before;
    HistoryUse after;
    int turnsDropped = 0;
};

// The repository at `path` (open as `repository`).
Result<HistoryUse> historyUse(git_repository *repository, const QString &path);

// Drops the oldest turns until at most policy.keepTurns are left and the
// repository is within policy.sizeLimitBytes (halving the turns kept while
// it is not, down to one). The caller holds the history's lock. `indexFile`
// is the snapshot index: the objects it names are kept, since the next
// snapshot reuses them without looking.
Result<PruneReport> pruneHistory(git_repository *repository, const QString &path,
                                 const QString &indexFile, const RetentionPolicy &policy);

} // namespace arizuko::history
