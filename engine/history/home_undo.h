#pragma once

// An undo, planned whole before the home is touched, then applied. The
// turn's changes are per file (a directory the turn replaced by a file is
// the file added and the directory's files deleted), so each name's kind
// may differ between the snapshots: the plan restores a name only when
// what stands in its way goes too (a file the turn left where a directory
// was, a directory the undo empties), and otherwise names it a conflict,
// so that the plan shown is what the apply does. HomeHistory::undo.

#include "core/result.h"
#include "history/home_history.h"

#include <QByteArray>
#include <QList>
#include <QStringList>
#include <git2/oid.h>
#include <git2/types.h>

namespace arizuko::history {

// One name in a snapshot's tree: a file, a link, a directory, or nothing.
struct TreeEntryState
{
    bool present = false;
    git_oid oid{};
    git_filemode_t mode = GIT_FILEMODE_UNREADABLE;

    bool isDirectory() const { return present && mode == GIT_FILEMODE_TREE; }
    bool operator==(const TreeEntryState &other) const;
};
TreeEntryState entryAt(git_tree *tree, const QByteArray &storedPath);

// A path of the turn's changes (as the tree stores it), and whether its
// content before the turn was over the size limit and never stored.
struct UndoCandidate
{
    QByteArray storedPath;
    bool unstoredBefore = false;
};

// The snapshots before and after the turn, the home now, and the names the
// snapshot of now skipped (a FIFO, a socket: they keep a directory).
struct UndoTrees
{
    git_tree *before = nullptr;
    git_tree *after = nullptr;
    git_tree *current = nullptr;
    QStringList currentSkipped;
};

struct UndoStep
{
    QByteArray path; // the home's (tree_names.h)
    QString shown;
    // Not present: the name is removed. A directory before the turn is
    // never a target: its files are steps of their own.
    TreeEntryState target;
    bool needed = true; // false: the home has it as before already
};

struct UndoPlan
{
    QList<UndoStep> steps; // removals first
    QList<UndoConflict> conflicts;

    QStringList shownSteps() const;
};

Result<UndoPlan> planUndo(const QList<UndoCandidate> &candidates, const UndoTrees &trees,
                          UndoMode mode);

// Applies the plan to the home open at `home`: every removal, then every
// restore. A step that fails is a conflict saying why, and the rest still
// run: the report lists exactly what was restored.
UndoReport applyUndo(git_repository *repository, int home, const QString &turnId,
                     const UndoPlan &plan);

} // namespace arizuko::history
