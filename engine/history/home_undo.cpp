#include "history/home_undo.h"

#include "history/git_handles.h"
#include "history/home_restore.h"
#include "history/tree_names.h"

#include <QSet>

namespace arizuko::history {
namespace {

bool restorable(git_filemode_t mode)
{
    return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE ||
           mode == GIT_FILEMODE_LINK;
}

// The first file or link below the directory `directory` (a stored path)
// of the home now that the plan does not remove; empty when there is none.
Result<QByteArray> firstKeptBelow(git_tree *current, const QByteArray &directory,
                                  const QSet<QByteArray> &removed)
{
    const TreeEntryState entry = entryAt(current, directory);
    git_tree *raw = nullptr;
    if (git_tree_lookup(&raw, git_tree_owner(current), &entry.oid) != 0)
        return gitError(QStringLiteral("read the directory %1").arg(shownPath(directory)));
    const Tree tree(raw);
    struct Walk
    {
        const QByteArray &directory;
        const QSet<QByteArray> &removed;
        QByteArray kept;
    } walk{directory, removed, {}};
    const auto visit = [](const char *root, const git_tree_entry *child, void *payload) -> int {
        auto *state = static_cast<Walk *>(payload);
        if (git_tree_entry_filemode(child) == GIT_FILEMODE_TREE)
            return 0;
        const QByteArray path = state->directory + '/' + root + git_tree_entry_name(child);
        if (state->removed.contains(path))
            return 0;
        state->kept = path;
        return -1; // found one: stop
    };
    git_tree_walk(tree.get(), GIT_TREEWALK_PRE, visit, &walk);
    git_error_clear();
    return walk.kept;
}

// Why the file or link of `step` cannot come back, or empty when it can
// once the plan's removals are done.
Result<QString> blocked(const UndoStep &step, const QByteArray &stored, const UndoTrees &trees,
                        const QSet<QByteArray> &removed)
{
    // Every directory on the way must be one now, or a name the plan removes.
    for (qsizetype slash = stored.indexOf('/'); slash >= 0;
         slash = stored.indexOf('/', slash + 1)) {
        const QByteArray above = stored.left(slash);
        const TreeEntryState now = entryAt(trees.current, above);
        if (now.present && !now.isDirectory() && !removed.contains(above))
            return QStringLiteral("%1 is a file or a link now, not the directory it was, and the "
                                  "undo leaves it")
                .arg(shownPath(above));
    }
    if (!entryAt(trees.current, stored).isDirectory())
        return QString();
    // A directory where the file was: it goes only once the plan emptied it.
    const Result<QByteArray> kept = firstKeptBelow(trees.current, stored, removed);
    if (!kept)
        return kept.error();
    if (!kept->isEmpty())
        return QStringLiteral("a directory is there now, holding %1, which the undo leaves")
            .arg(shownPath(*kept));
    const QString below = step.shown + QLatin1Char('/');
    for (const QString &skipped : trees.currentSkipped) {
        if (skipped.startsWith(below))
            return QStringLiteral("a directory is there now, holding %1, which the history "
                                  "skipped")
                .arg(skipped);
    }
    return QString();
}

Result<void> restoreStep(git_repository *repository, int home, const UndoStep &step)
{
    git_blob *raw = nullptr;
    if (git_blob_lookup(&raw, repository, &step.target.oid) != 0)
        return gitError(QStringLiteral("read %1").arg(step.shown));
    const Blob blob(raw);
    const QByteArray content(static_cast<const char *>(git_blob_rawcontent(raw)),
                             qsizetype(git_blob_rawsize(raw)));
    const RestoredKind kind = step.target.mode == GIT_FILEMODE_LINK ? RestoredKind::Link
                              : step.target.mode == GIT_FILEMODE_BLOB_EXECUTABLE
                                  ? RestoredKind::ExecutableFile
                                  : RestoredKind::File;
    return restoreEntry(home, step.path, kind, content);
}

} // namespace

bool TreeEntryState::operator==(const TreeEntryState &other) const
{
    return present == other.present &&
           (!present || (mode == other.mode && git_oid_equal(&oid, &other.oid)));
}

TreeEntryState entryAt(git_tree *tree, const QByteArray &storedPath)
{
    git_tree_entry *raw = nullptr;
    if (git_tree_entry_bypath(&raw, tree, storedPath.constData()) != 0) {
        git_error_clear();
        return {};
    }
    const TreeEntry owned(raw);
    return {true, *git_tree_entry_id(raw), git_tree_entry_filemode(raw)};
}

QStringList UndoPlan::shownSteps() const
{
    QStringList shown;
    for (const UndoStep &step : steps)
        shown << step.shown;
    return shown;
}

Result<UndoPlan> planUndo(const QList<UndoCandidate> &candidates, const UndoTrees &trees,
                          UndoMode mode)
{
    UndoPlan plan;
    QList<std::pair<UndoStep, QByteArray>> restores;
    QSet<QByteArray> removed; // stored paths
    for (const UndoCandidate &candidate : candidates) {
        const QByteArray &stored = candidate.storedPath;
        UndoStep step{homePath(stored), shownPath(stored), entryAt(trees.before, stored), true};
        if (step.target.isDirectory())
            step.target = {};
        if (step.target.present && !restorable(step.target.mode)) {
            plan.conflicts.append({step.shown, QStringLiteral("neither a file nor a link in the "
                                                              "history; cannot be restored")});
            continue;
        }
        if (step.target.present && candidate.unstoredBefore) {
            plan.conflicts.append(
                {step.shown, QStringLiteral("not stored (over the size limit "
                                            "when recorded); cannot be restored")});
            continue;
        }
        const TreeEntryState now = entryAt(trees.current, stored);
        if (!(entryAt(trees.after, stored) == now) && mode != UndoMode::Force) {
            plan.conflicts.append({step.shown, QStringLiteral("changed since the turn")});
            continue;
        }
        if (!step.target.present && now.isDirectory()) {
            plan.conflicts.append(
                {step.shown, QStringLiteral("a directory is there now; the undo leaves it")});
            continue;
        }
        if (step.target.present) {
            restores.append({step, stored});
            continue;
        }
        if (!now.present && trees.currentSkipped.contains(step.shown)) {
            plan.conflicts.append({step.shown, QStringLiteral("what is there now was skipped by "
                                                              "the history; the undo leaves it")});
            continue;
        }
        step.needed = now.present;
        removed.insert(stored);
        plan.steps.append(step);
    }
    for (const auto &[step, stored] : std::as_const(restores)) {
        const Result<QString> why = blocked(step, stored, trees, removed);
        if (!why)
            return why.error();
        if (why->isEmpty())
            plan.steps.append(step);
        else
            plan.conflicts.append({step.shown, *why});
    }
    return plan;
}

UndoReport applyUndo(git_repository *repository, int home, const QString &turnId,
                     const UndoPlan &plan)
{
    UndoReport report{turnId, {}, plan.conflicts, true};
    for (const UndoStep &step : plan.steps) {
        const Result<void> done = !step.needed          ? Result<void>()
                                  : step.target.present ? restoreStep(repository, home, step)
                                                        : removeEntry(home, step.path);
        if (done)
            report.restored << step.shown;
        else
            report.conflicts.append({step.shown, done.error().message});
    }
    return report;
}

} // namespace arizuko::history
