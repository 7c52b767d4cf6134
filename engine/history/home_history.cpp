#include "history/home_history.h"

#include "folders/folders.h"
#include "history/home_undo.h"
#include "history/tree_names.h"
#include "posix/unique_fd.h"
#include "store/data_subdirectory.h"
#include "store/home_layout.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <fcntl.h>
#include <limits>
#include <optional>
#include <sys/file.h>

namespace arizuko::history {
namespace {

const QString historyDirectory = QStringLiteral("history");
const QString metadataKey = QStringLiteral("Arizuko-Snapshot: ");
constexpr qsizetype maxDiffChars = 256 * 1024;

// Home ids and turn ids become file and reference names.
bool safeName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$"));
    return pattern.match(name).hasMatch();
}

QString snapshotIndexFile(const QString &repository)
{
    return repository + QStringLiteral("/arizuko-index");
}

QString firstLine(const QString &text)
{
    const QString line = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    return line.size() > 200 ? line.left(200) + QStringLiteral("…") : line;
}

QString labelBody(const TurnLabel &turn)
{
    return QStringLiteral("Turn: %1\nTopic: %2\nPrompt: %3\n")
        .arg(turn.turnId, turn.topic, firstLine(turn.prompt));
}

QJsonObject metadata(const HomeTree &tree, const SnapshotOptions &options)
{
    QJsonArray skipped;
    for (const SkippedEntry &entry : tree.skipped)
        skipped.append(QJsonObject{{QStringLiteral("path"), QString::fromUtf8(entry.path)},
                                   {QStringLiteral("why"), entry.why}});
    QJsonArray unstored;
    for (const UnstoredFile &file : tree.unstored) {
        QJsonObject object{{QStringLiteral("path"), QString::fromUtf8(file.path)},
                           {QStringLiteral("size"), double(file.size)}};
        if (file.budget != BudgetLimit::None)
            object.insert(QStringLiteral("budget"), budgetLimitName(file.budget));
        unstored.append(object);
    }
    QJsonObject object{{QStringLiteral("skipped"), skipped},
                       {QStringLiteral("unstored"), unstored}};
    // Only when a budget ran out: a snapshot within it reads as before.
    if (tree.budget != BudgetLimit::None)
        object.insert(QStringLiteral("budget"), budgetNote(tree.budget, tree.budgetFiles, options));
    return object;
}

// A skipped name and its reason, as one key.
QString skippedKey(const QJsonObject &skipped)
{
    return skipped.value(QStringLiteral("path")).toString() + QChar(0) +
           skipped.value(QStringLiteral("why")).toString();
}

QJsonObject commitMetadata(const git_commit *commit)
{
    const QString message = QString::fromUtf8(git_commit_message(commit));
    const qsizetype at = message.lastIndexOf(metadataKey);
    if (at < 0)
        return {};
    const QString json = message.mid(at + metadataKey.size()).section(QLatin1Char('\n'), 0, 0);
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

// Serialises the processes and threads that write one history (the
// window's runner, an arizukoctl undo): an flock on a file in the repository.
class HistoryLock
{
public:
    static Result<HistoryLock> take(const QString &repository)
    {
        const QString file = repository + QStringLiteral("/arizuko.lock");
        posix::UniqueFd fd(::open(QFile::encodeName(file).constData(),
                                  O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!fd || ::flock(fd.get(), LOCK_EX) != 0)
            return makeError(QStringLiteral("history.lock"),
                             QStringLiteral("cannot lock the history %1").arg(repository));
        return HistoryLock(std::move(fd));
    }

private:
    explicit HistoryLock(posix::UniqueFd fd)
        : m_fd(std::move(fd))
    {}
    posix::UniqueFd m_fd;
};

} // namespace

Error gitError(const QString &what)
{
    const git_error *error = git_error_last();
    return makeError(QStringLiteral("history.git"),
                     QStringLiteral("cannot %1 in the home's history: %2")
                         .arg(what, error && error->message ? QString::fromUtf8(error->message)
                                                            : QStringLiteral("unknown error")));
}

QString changeKindName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Added:
        return QStringLiteral("added");
    case ChangeKind::Deleted:
        return QStringLiteral("deleted");
    case ChangeKind::Skipped:
        return QStringLiteral("skipped");
    case ChangeKind::Modified:
        break;
    }
    return QStringLiteral("modified");
}

struct HomeHistory::State
{
    GitLibrary library;
    Repository repository;
    SnapshotStats last;
};

HomeHistory::SnapshotStats HomeHistory::lastSnapshot() const
{
    return m_state->last;
}

HomeHistory::HomeHistory(QString dataDir, QString homeId, QString path, SnapshotOptions options,
                         std::shared_ptr<State> state)
    : m_dataDir(std::move(dataDir))
    , m_homeId(std::move(homeId))
    , m_path(std::move(path))
    , m_options(options)
    , m_state(std::move(state))
{}

QString HomeHistory::repositoryPath(const QString &dataDir, const QString &homeId)
{
    return dataDir + QLatin1Char('/') + store::historyRelativePath(homeId);
}

Result<HomeHistory> HomeHistory::open(const QString &dataDir, const QString &homeId,
                                      const SnapshotOptions &options)
{
    return openRepository(dataDir, homeId, options, true);
}

Result<HomeHistory> HomeHistory::openExisting(const QString &dataDir, const QString &homeId,
                                              const SnapshotOptions &options)
{
    return openRepository(dataDir, homeId, options, false);
}

Result<HomeHistory> HomeHistory::openRepository(const QString &dataDir, const QString &homeId,
                                                const SnapshotOptions &options, bool create)
{
    if (!safeName(homeId))
        return makeError(QStringLiteral("history.bad-home"),
                         QStringLiteral("'%1' is not a home id").arg(homeId));
    // Beside <data>/homes, never below it: no guest's share reaches it.
    const Result<store::OpenedDirectory> directory =
        store::openBelowDataDir(dataDir, historyDirectory, create);
    if (!directory && directory.error().code == u"store.path-missing")
        return makeError(QStringLiteral("history.none"),
                         QStringLiteral("the home %1 has no history yet").arg(homeId));
    if (!directory)
        return directory.error();
    const QString path = repositoryPath(dataDir, homeId);
    auto state = std::make_shared<State>();
    git_repository *raw = nullptr;
    if (git_repository_open_bare(&raw, QFile::encodeName(path).constData()) != 0) {
        git_error_clear();
        if (!create)
            return makeError(QStringLiteral("history.none"),
                             QStringLiteral("the home %1 has no history yet").arg(homeId));
        if (git_repository_init(&raw, QFile::encodeName(path).constData(), 1) != 0)
            return gitError(QStringLiteral("create the repository %1").arg(path));
    }
    state->repository.reset(raw);
    return HomeHistory(dataDir, homeId, path, options, std::move(state));
}

Result<git_oid> HomeHistory::snapshot(const QString &subject, const QString &body)
{
    git_repository *repository = m_state->repository.get();
    Result<store::OpenedDirectory> home = folders::Folders::openHome(m_dataDir, m_homeId);
    if (!home)
        return home.error();
    const QString indexFile = snapshotIndexFile(m_path);
    SnapshotIndex index = SnapshotIndex::load(indexFile);
    const Result<HomeTree> tree = writeHomeTree(repository, home->fd.get(), m_options, index);
    if (!tree)
        return tree.error();
    if (const Result<void> saved = index.save(indexFile); !saved)
        return saved.error();
    const QJsonObject seen = metadata(*tree, m_options);
    m_state->last = {tree->filesRead, tree->filesReused, tree->bytesRead,
                     seen.value(QStringLiteral("budget")).toString()};

    git_commit *rawHead = nullptr;
    git_oid headId{};
    const bool hasHead = git_reference_name_to_id(&headId, repository, historyBranch) == 0 &&
                         git_commit_lookup(&rawHead, repository, &headId) == 0;
    git_error_clear();
    const Commit head(rawHead);
    // The same files but a name skipped anew (a socket left behind, a FIFO
    // made) is a new snapshot too: the turn's changes list that name.
    if (hasHead && git_oid_equal(git_commit_tree_id(head.get()), &tree->tree) &&
        commitMetadata(head.get()) == seen)
        return headId;

    git_tree *rawTree = nullptr;
    if (git_tree_lookup(&rawTree, repository, &tree->tree) != 0)
        return gitError(QStringLiteral("read the snapshot's tree"));
    const Tree treeObject(rawTree);
    git_signature *rawSignature = nullptr;
    if (git_signature_now(&rawSignature, "Arizuko Desktop", "history@arizuko.invalid") != 0)
        return gitError(QStringLiteral("sign a snapshot"));
    const Signature signature(rawSignature);
    const QByteArray message =
        (subject + QStringLiteral("\n\n") + body + QLatin1Char('\n') + metadataKey +
         QString::fromUtf8(QJsonDocument(seen).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'))
            .toUtf8();
    const git_commit *parents[] = {head.get()};
    git_oid commit{};
    if (git_commit_create(&commit, repository, historyBranch, signature.get(), signature.get(),
                          "UTF-8", message.constData(), treeObject.get(), hasHead ? 1 : 0,
                          parents) != 0)
        return gitError(QStringLiteral("record a snapshot"));
    return commit;
}

Result<void> HomeHistory::setReference(const QString &turnId, const char *which,
                                       const git_oid &commit)
{
    if (!safeName(turnId))
        return makeError(QStringLiteral("history.bad-turn"),
                         QStringLiteral("'%1' is not a turn id").arg(turnId));
    const QByteArray name =
        QStringLiteral("refs/turns/%1/%2").arg(turnId, QLatin1String(which)).toUtf8();
    git_reference *raw = nullptr;
    if (git_reference_create(&raw, m_state->repository.get(), name.constData(), &commit, 1,
                             nullptr) != 0)
        return gitError(QStringLiteral("name the snapshot of turn %1").arg(turnId));
    const Reference owned(raw);
    return {};
}

Result<git_oid> HomeHistory::turnCommit(const QString &turnId, const char *which) const
{
    if (!safeName(turnId))
        return makeError(QStringLiteral("history.bad-turn"),
                         QStringLiteral("'%1' is not a turn id").arg(turnId));
    const QByteArray name =
        QStringLiteral("refs/turns/%1/%2").arg(turnId, QLatin1String(which)).toUtf8();
    git_oid oid{};
    if (git_reference_name_to_id(&oid, m_state->repository.get(), name.constData()) != 0) {
        git_error_clear();
        return makeError(QStringLiteral("history.no-turn"),
                         QStringLiteral("the history has no snapshot %1 turn %2%3")
                             .arg(QLatin1String(which) == QLatin1String("before")
                                      ? QStringLiteral("before")
                                      : QStringLiteral("after"),
                                  turnId,
                                  QLatin1String(which) == QLatin1String("after")
                                      ? QStringLiteral(" (is it still running?)")
                                      : QString()));
    }
    return oid;
}

Result<HistoryUse> HomeHistory::use() const
{
    return historyUse(m_state->repository.get(), m_path);
}

Result<PruneReport> HomeHistory::prune(const RetentionPolicy &policy)
{
    const Result<HistoryLock> lock = HistoryLock::take(m_path);
    if (!lock)
        return lock.error();
    return pruneHistory(m_state->repository.get(), m_path, snapshotIndexFile(m_path), policy);
}

Result<void> HomeHistory::recordBefore(const TurnLabel &turn)
{
    const Result<HistoryLock> lock = HistoryLock::take(m_path);
    if (!lock)
        return lock.error();
    const Result<git_oid> commit = snapshot(
        QStringLiteral("Changes outside turns, before turn %1").arg(turn.turnId), labelBody(turn));
    if (!commit)
        return commit.error();
    return setReference(turn.turnId, "before", *commit);
}

Result<void> HomeHistory::recordAfter(const TurnLabel &turn)
{
    const Result<HistoryLock> lock = HistoryLock::take(m_path);
    if (!lock)
        return lock.error();
    const Result<git_oid> commit =
        snapshot(QStringLiteral("Turn %1: %2").arg(turn.turnId.left(8), firstLine(turn.prompt)),
                 labelBody(turn));
    if (!commit)
        return commit.error();
    return setReference(turn.turnId, "after", *commit);
}

namespace {

struct TurnTrees
{
    Commit before;
    Commit after;
    Tree beforeTree;
    Tree afterTree;
};

Result<Commit> lookupCommit(git_repository *repository, const git_oid &oid)
{
    git_commit *raw = nullptr;
    if (git_commit_lookup(&raw, repository, &oid) != 0)
        return gitError(QStringLiteral("read a snapshot"));
    return Commit(raw);
}

Result<Tree> commitTree(const git_commit *commit)
{
    git_tree *raw = nullptr;
    if (git_commit_tree(&raw, commit) != 0)
        return gitError(QStringLiteral("read a snapshot's tree"));
    return Tree(raw);
}

// nullopt: `file` is stored. Else why it was not: empty when it was over
// the size limit, the placeholder's budget line when a budget left it unread.
std::optional<QString> unstoredWhy(git_repository *repository, const git_diff_file &file)
{
    if (!(file.flags & GIT_DIFF_FLAG_EXISTS) || file.mode == GIT_FILEMODE_LINK)
        return std::nullopt;
    git_blob *raw = nullptr;
    if (git_blob_lookup(&raw, repository, &file.id) != 0) {
        git_error_clear();
        return std::nullopt;
    }
    const Blob blob(raw);
    const QByteArrayView content(static_cast<const char *>(git_blob_rawcontent(raw)),
                                 qsizetype(git_blob_rawsize(raw)));
    if (!content.startsWith(QByteArrayView(unstoredMarker)))
        return std::nullopt;
    const qsizetype at = content.indexOf(QByteArrayView(budgetMarker));
    if (at < 0)
        return QString();
    const qsizetype end = content.indexOf('\n', at);
    return QString::fromUtf8(content.sliced(at, (end < 0 ? content.size() : end) - at));
}

bool isUnstored(git_repository *repository, const git_diff_file &file)
{
    return unstoredWhy(repository, file).has_value();
}

// The deltas between two trees, one per file (links included), no renames.
Result<Diff> diffTrees(git_repository *repository, git_tree *from, git_tree *to)
{
    git_diff_options options = GIT_DIFF_OPTIONS_INIT;
    options.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
    git_diff *raw = nullptr;
    if (git_diff_tree_to_tree(&raw, repository, from, to, &options) != 0)
        return gitError(QStringLiteral("compare two snapshots"));
    return Diff(raw);
}

} // namespace

Result<TurnChanges> HomeHistory::changes(const QString &turnId, bool withDiff) const
{
    git_repository *repository = m_state->repository.get();
    const Result<git_oid> beforeId = turnCommit(turnId, "before");
    if (!beforeId)
        return beforeId.error();
    const Result<git_oid> afterId = turnCommit(turnId, "after");
    if (!afterId)
        return afterId.error();
    Result<Commit> before = lookupCommit(repository, *beforeId);
    Result<Commit> after = lookupCommit(repository, *afterId);
    if (!before)
        return before.error();
    if (!after)
        return after.error();
    Result<Tree> beforeTree = commitTree(before->get());
    Result<Tree> afterTree = commitTree(after->get());
    if (!beforeTree)
        return beforeTree.error();
    if (!afterTree)
        return afterTree.error();
    const Result<Diff> diff = diffTrees(repository, beforeTree->get(), afterTree->get());
    if (!diff)
        return diff.error();

    TurnChanges changes{turnId, {}, {}, {}};
    qsizetype diffChars = 0;
    int omitted = 0;
    const size_t count = git_diff_num_deltas(diff->get());
    for (size_t i = 0; i < count; ++i) {
        const git_diff_delta *delta = git_diff_get_delta(diff->get(), i);
        const QByteArray stored(delta->status == GIT_DELTA_DELETED ? delta->old_file.path
                                                                   : delta->new_file.path);
        FileChange change;
        change.path = shownPath(stored);
        change.kind = delta->status == GIT_DELTA_ADDED     ? ChangeKind::Added
                      : delta->status == GIT_DELTA_DELETED ? ChangeKind::Deleted
                                                           : ChangeKind::Modified;
        const std::optional<QString> oldWhy = unstoredWhy(repository, delta->old_file);
        const std::optional<QString> newWhy = unstoredWhy(repository, delta->new_file);
        change.stored = !oldWhy && !newWhy;
        change.why = newWhy && !newWhy->isEmpty() ? *newWhy : oldWhy ? *oldWhy : QString();
        // Past the total, a diff is not even made: it is the costly part.
        if (withDiff && diffChars >= maxTotalDiffChars) {
            change.diffOmitted = true;
            ++omitted;
        } else if (withDiff) {
            git_patch *rawPatch = nullptr;
            git_buf text = GIT_BUF_INIT;
            if (git_patch_from_diff(&rawPatch, diff->get(), i) != 0)
                return gitError(QStringLiteral("diff %1").arg(change.path));
            const Patch patch(rawPatch);
            if (rawPatch && git_patch_to_buf(&text, rawPatch) == 0) {
                change.diff =
                    diffWithHomePath(QString::fromUtf8(text.ptr, qsizetype(text.size)), stored);
                git_buf_dispose(&text);
            }
            if (change.diff.size() > maxDiffChars)
                change.diff = change.diff.left(maxDiffChars) +
                              QStringLiteral("\n… diff cut at %1 characters\n").arg(maxDiffChars);
            diffChars += change.diff.size();
        }
        changes.files.append(change);
    }
    if (omitted > 0)
        changes.notes << QStringLiteral("the diffs shown stop at %1 characters in all: %2 "
                                        "file(s) are listed without their diff")
                             .arg(maxTotalDiffChars)
                             .arg(omitted);
    const Result<QList<OverlappingTurn>> overlapping =
        overlappingTurns(turnId, *beforeId, *afterId);
    if (!overlapping)
        return overlapping.error();
    changes.overlapping = *overlapping;
    // Names the snapshot after the turn left out and the one before did
    // not: a set, since a home may hold hundreds of thousands of FIFOs.
    QSet<QString> skippedBefore;
    for (const QJsonValue &value :
         commitMetadata(before->get()).value(QStringLiteral("skipped")).toArray())
        skippedBefore.insert(skippedKey(value.toObject()));
    const QJsonObject afterMetadata = commitMetadata(after->get());
    if (const QString note = afterMetadata.value(QStringLiteral("budget")).toString();
        !note.isEmpty())
        changes.notes.prepend(note);
    for (const QJsonValue &value : afterMetadata.value(QStringLiteral("skipped")).toArray()) {
        const QJsonObject skipped = value.toObject();
        if (skippedBefore.contains(skippedKey(skipped)))
            continue;
        FileChange change;
        change.path = skipped.value(QStringLiteral("path")).toString();
        change.kind = ChangeKind::Skipped;
        change.why = skipped.value(QStringLiteral("why")).toString();
        changes.files.append(change);
    }
    return changes;
}

Result<QList<OverlappingTurn>> HomeHistory::overlappingTurns(const QString &turnId,
                                                             const git_oid &before,
                                                             const git_oid &after) const
{
    git_repository *repository = m_state->repository.get();
    // Each commit's place on the history's one line, oldest first.
    git_revwalk *rawWalk = nullptr;
    if (git_revwalk_new(&rawWalk, repository) != 0)
        return gitError(QStringLiteral("walk the history"));
    const RevWalk walk(rawWalk);
    git_revwalk_simplify_first_parent(rawWalk);
    if (git_revwalk_push_ref(rawWalk, historyBranch) != 0)
        return gitError(QStringLiteral("walk the history"));
    QList<QByteArray> newestFirst;
    for (git_oid oid{}; git_revwalk_next(&oid, rawWalk) == 0;)
        newestFirst.append(QByteArray(reinterpret_cast<const char *>(oid.id), GIT_OID_RAWSZ));
    git_error_clear();
    QHash<QByteArray, qsizetype> place;
    for (qsizetype i = 0; i < newestFirst.size(); ++i)
        place.insert(newestFirst[i], newestFirst.size() - i);
    const auto placeOf = [&place](const git_oid &oid) {
        return place.value(QByteArray(reinterpret_cast<const char *>(oid.id), GIT_OID_RAWSZ), -1);
    };
    const qsizetype start = placeOf(before);
    const qsizetype end = placeOf(after);

    git_reference_iterator *rawIterator = nullptr;
    if (git_reference_iterator_glob_new(&rawIterator, repository, "refs/turns/*/before") != 0)
        return gitError(QStringLiteral("list the turns"));
    const ReferenceIterator iterator(rawIterator);
    QList<OverlappingTurn> overlapping;
    for (const char *name = nullptr; git_reference_next_name(&name, rawIterator) == 0;) {
        const QString other = QString::fromUtf8(name).section(QLatin1Char('/'), 2, 2);
        if (other == turnId)
            continue;
        const Result<git_oid> otherBefore = turnCommit(other, "before");
        if (!otherBefore)
            continue;
        const Result<git_oid> otherAfter = turnCommit(other, "after");
        const qsizetype otherStart = placeOf(*otherBefore);
        const qsizetype otherEnd =
            otherAfter ? placeOf(*otherAfter) : std::numeric_limits<qsizetype>::max();
        // Equal places are one commit: nothing changed in the home between
        // those snapshots, so neither turn saw the other's writes there.
        if (otherStart < end && start < otherEnd)
            overlapping.append({other, QString(), otherAfter.ok()});
    }
    git_error_clear();
    return overlapping;
}

Result<UndoReport> HomeHistory::undo(const QString &turnId, UndoMode mode)
{
    git_repository *repository = m_state->repository.get();
    const Result<HistoryLock> lock = HistoryLock::take(m_path);
    if (!lock)
        return lock.error();
    const Result<git_oid> beforeId = turnCommit(turnId, "before");
    if (!beforeId)
        return beforeId.error();
    const Result<git_oid> afterId = turnCommit(turnId, "after");
    if (!afterId)
        return afterId.error();
    // The home as it is now, recorded first: an undo never loses what the
    // user (or a later turn) wrote since, even a forced one.
    const Result<git_oid> currentId =
        snapshot(QStringLiteral("Changes outside turns, before undoing turn %1").arg(turnId),
                 QStringLiteral("Turn: %1\n").arg(turnId));
    if (!currentId)
        return currentId.error();
    Result<Commit> before = lookupCommit(repository, *beforeId);
    Result<Commit> after = lookupCommit(repository, *afterId);
    Result<Commit> current = lookupCommit(repository, *currentId);
    if (!before || !after || !current)
        return !before ? before.error() : !after ? after.error() : current.error();
    Result<Tree> beforeTree = commitTree(before->get());
    Result<Tree> afterTree = commitTree(after->get());
    Result<Tree> currentTree = commitTree(current->get());
    if (!beforeTree || !afterTree || !currentTree)
        return !beforeTree  ? beforeTree.error()
               : !afterTree ? afterTree.error()
                            : currentTree.error();
    const Result<Diff> diff = diffTrees(repository, beforeTree->get(), afterTree->get());
    if (!diff)
        return diff.error();

    // Everything is decided before the home is touched: what a plan shows
    // is what the apply does, and no lookup fails half-way through it.
    QList<UndoCandidate> candidates;
    const size_t count = git_diff_num_deltas(diff->get());
    for (size_t i = 0; i < count; ++i) {
        const git_diff_delta *delta = git_diff_get_delta(diff->get(), i);
        candidates.append({QByteArray(delta->status == GIT_DELTA_DELETED ? delta->old_file.path
                                                                         : delta->new_file.path),
                           isUnstored(repository, delta->old_file)});
    }
    QStringList skippedNow;
    for (const QJsonValue &skipped :
         commitMetadata(current->get()).value(QStringLiteral("skipped")).toArray())
        skippedNow << skipped.toObject().value(QStringLiteral("path")).toString();
    const Result<UndoPlan> plan = planUndo(
        candidates, {beforeTree->get(), afterTree->get(), currentTree->get(), skippedNow}, mode);
    if (!plan)
        return plan.error();
    if (mode == UndoMode::Plan)
        return UndoReport{turnId, plan->shownSteps(), plan->conflicts, false};

    Result<store::OpenedDirectory> home = folders::Folders::openHome(m_dataDir, m_homeId);
    if (!home)
        return home.error();
    // From here every step's outcome is in the report, and the report in
    // the commit below: a step that fails is a conflict, not a stop.
    const UndoReport report = applyUndo(repository, home->fd.get(), turnId, *plan);
    const QStringList &restored = report.restored;

    QJsonArray conflicts;
    for (const UndoConflict &conflict : std::as_const(report.conflicts))
        conflicts.append(QJsonObject{{QStringLiteral("path"), conflict.path},
                                     {QStringLiteral("why"), conflict.why}});
    const Result<git_oid> undone = snapshot(
        QStringLiteral("Undo of turn %1").arg(turnId),
        QStringLiteral("Turn: %1\nRestored: %2\nConflicts: %3\n")
            .arg(turnId,
                 QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(restored))
                                       .toJson(QJsonDocument::Compact)),
                 QString::fromUtf8(QJsonDocument(conflicts).toJson(QJsonDocument::Compact))));
    const Result<void> named =
        undone ? setReference(turnId, "undo", *undone) : Result<void>(undone.error());
    if (!named)
        return makeError(QStringLiteral("history.undo-unrecorded"),
                         QStringLiteral("the undo of turn %1 restored %2 and left %3 conflict(s) "
                                        "in the home, but could not be recorded in its history: %4")
                             .arg(turnId,
                                  restored.isEmpty() ? QStringLiteral("nothing")
                                                     : restored.join(QStringLiteral(", ")),
                                  QString::number(report.conflicts.size()), named.error().message));
    return report;
}

} // namespace arizuko::history
