#include "history/history_pruning.h"

#include "history/git_handles.h"
#include "history/snapshot_index.h"
#include "posix/unique_fd.h"

#include <QFile>
#include <QHash>
#include <QList>
#include <QSet>
#include <algorithm>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::history {
namespace {

QByteArray rawId(const git_oid &oid)
{
    return QByteArray(reinterpret_cast<const char *>(oid.id), GIT_OID_RAWSZ);
}

// The blocks allocated below the directory open at `fd` (closed here).
qint64 allocatedBytes(int fd)
{
    DIR *stream = ::fdopendir(fd);
    if (!stream) {
        ::close(fd);
        return 0;
    }
    const std::unique_ptr<DIR, int (*)(DIR *)> closer(stream, ::closedir);
    qint64 total = 0;
    while (const dirent *entry = ::readdir(stream)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        struct stat status
        {
        };
        if (::fstatat(::dirfd(stream), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        total += qint64(status.st_blocks) * 512;
        if (S_ISDIR(status.st_mode)) {
            const int child = ::openat(::dirfd(stream), entry->d_name,
                                       O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (child >= 0)
                total += allocatedBytes(child);
        }
    }
    return total;
}

// The history's line of commits, oldest first.
Result<QList<git_oid>> historyLine(git_repository *repository)
{
    git_revwalk *raw = nullptr;
    if (git_revwalk_new(&raw, repository) != 0)
        return gitError(QStringLiteral("walk the history"));
    const RevWalk walk(raw);
    git_revwalk_simplify_first_parent(raw);
    git_revwalk_sorting(raw, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
    if (git_revwalk_push_ref(raw, historyBranch) != 0) {
        git_error_clear();
        return QList<git_oid>(); // no snapshot yet
    }
    QList<git_oid> line;
    for (git_oid oid{}; git_revwalk_next(&oid, raw) == 0;)
        line.append(oid);
    git_error_clear();
    return line;
}

struct RecordedTurn
{
    QString id;
    qsizetype place = 0; // of its snapshot before on the line
};

// Every reference name matching `glob`, and the commit it names.
Result<QList<std::pair<QByteArray, git_oid>>> references(git_repository *repository,
                                                         const char *glob)
{
    git_reference_iterator *raw = nullptr;
    if (git_reference_iterator_glob_new(&raw, repository, glob) != 0)
        return gitError(QStringLiteral("list the turns"));
    const ReferenceIterator iterator(raw);
    QList<std::pair<QByteArray, git_oid>> found;
    for (const char *name = nullptr; git_reference_next_name(&name, raw) == 0;) {
        git_oid oid{};
        if (git_reference_name_to_id(&oid, repository, name) == 0)
            found.append({QByteArray(name), oid});
    }
    git_error_clear();
    return found;
}

// The turns recorded, oldest snapshot before first.
Result<QList<RecordedTurn>> recordedTurns(git_repository *repository, const QList<git_oid> &line)
{
    QHash<QByteArray, qsizetype> place;
    for (qsizetype i = 0; i < line.size(); ++i)
        place.insert(rawId(line[i]), i);
    const auto befores = references(repository, "refs/turns/*/before");
    if (!befores)
        return befores.error();
    QList<RecordedTurn> turns;
    for (const auto &[name, oid] : *befores)
        turns.append(
            {QString::fromUtf8(name).section(QLatin1Char('/'), 2, 2), place.value(rawId(oid), -1)});
    std::sort(turns.begin(), turns.end(), [](const RecordedTurn &a, const RecordedTurn &b) {
        return a.place != b.place ? a.place < b.place : a.id < b.id;
    });
    return turns;
}

// The line from `cut` on, rewritten to start there: each commit made again
// with its tree and message on the one made before it. Old id -> new id.
Result<QHash<QByteArray, git_oid>> rewriteFrom(git_repository *repository,
                                               const QList<git_oid> &line, qsizetype cut)
{
    QHash<QByteArray, git_oid> moved;
    Commit parent;
    for (qsizetype i = cut; i < line.size(); ++i) {
        git_commit *rawCommit = nullptr;
        if (git_commit_lookup(&rawCommit, repository, &line[i]) != 0)
            return gitError(QStringLiteral("read a snapshot"));
        const Commit commit(rawCommit);
        git_tree *rawTree = nullptr;
        if (git_commit_tree(&rawTree, rawCommit) != 0)
            return gitError(QStringLiteral("read a snapshot's tree"));
        const Tree tree(rawTree);
        const git_commit *parents[] = {parent.get()};
        git_oid made{};
        if (git_commit_create(&made, repository, nullptr, git_commit_author(rawCommit),
                              git_commit_committer(rawCommit),
                              git_commit_message_encoding(rawCommit), git_commit_message(rawCommit),
                              rawTree, parent ? 1 : 0, parents) != 0)
            return gitError(QStringLiteral("rewrite a snapshot"));
        moved.insert(rawId(line[i]), made);
        git_commit *rawMade = nullptr;
        if (git_commit_lookup(&rawMade, repository, &made) != 0)
            return gitError(QStringLiteral("read a snapshot"));
        parent.reset(rawMade);
    }
    return moved;
}

void keepTree(git_repository *repository, const git_oid &id, QSet<QByteArray> &kept)
{
    if (kept.contains(rawId(id)))
        return;
    kept.insert(rawId(id));
    git_tree *raw = nullptr;
    if (git_tree_lookup(&raw, repository, &id) != 0) {
        git_error_clear();
        return;
    }
    const Tree tree(raw);
    for (size_t i = 0; i < git_tree_entrycount(raw); ++i) {
        const git_tree_entry *entry = git_tree_entry_byindex(raw, i);
        if (git_tree_entry_type(entry) == GIT_OBJECT_TREE)
            keepTree(repository, *git_tree_entry_id(entry), kept);
        else
            kept.insert(rawId(*git_tree_entry_id(entry)));
    }
}

int collectObject(const git_oid *id, void *payload)
{
    static_cast<QList<git_oid> *>(payload)->append(*id);
    return 0;
}

// Deletes every loose object that neither the line nor the index names.
Result<void> deleteUnreachable(git_repository *repository, const QString &path,
                               const QString &indexFile)
{
    const Result<QList<git_oid>> line = historyLine(repository);
    if (!line)
        return line.error();
    QSet<QByteArray> kept;
    for (const git_oid &id : *line) {
        git_commit *raw = nullptr;
        if (git_commit_lookup(&raw, repository, &id) != 0)
            return gitError(QStringLiteral("read a snapshot"));
        const Commit commit(raw);
        kept.insert(rawId(id));
        keepTree(repository, *git_commit_tree_id(raw), kept);
    }
    for (const git_oid &blob : SnapshotIndex::load(indexFile).blobs())
        kept.insert(rawId(blob));
    git_odb *rawOdb = nullptr;
    if (git_repository_odb(&rawOdb, repository) != 0)
        return gitError(QStringLiteral("open the objects"));
    const std::unique_ptr<git_odb, void (*)(git_odb *)> odb(rawOdb, git_odb_free);
    QList<git_oid> all;
    if (git_odb_foreach(rawOdb, collectObject, &all) != 0)
        return gitError(QStringLiteral("list the objects"));
    for (const git_oid &id : std::as_const(all)) {
        if (kept.contains(rawId(id)))
            continue;
        char hex[GIT_OID_HEXSZ + 1] = {};
        git_oid_tostr(hex, sizeof hex, &id);
        const QByteArray object =
            QFile::encodeName(path) + "/objects/" + QByteArray(hex, 2) + '/' + QByteArray(hex + 2);
        ::unlink(object.constData()); // a packed one stays; the history writes none
    }
    return {};
}

// Drops the oldest `drop` of `turns`: their references go, the line starts
// at the snapshot before of the oldest turn kept.
Result<void> dropOldest(git_repository *repository, const QString &path, const QString &indexFile,
                        const QList<RecordedTurn> &turns, qsizetype drop)
{
    const Result<QList<git_oid>> line = historyLine(repository);
    if (!line)
        return line.error();
    const qsizetype cut = std::max<qsizetype>(turns[drop].place, 0);
    const Result<QHash<QByteArray, git_oid>> moved =
        cut > 0 ? rewriteFrom(repository, *line, cut) : QHash<QByteArray, git_oid>();
    if (!moved)
        return moved.error();
    QSet<QString> dropped;
    for (qsizetype i = 0; i < drop; ++i)
        dropped.insert(turns[i].id);
    const auto named = references(repository, "refs/turns/*");
    if (!named)
        return named.error();
    for (const auto &[name, oid] : *named) {
        const QString turn = QString::fromUtf8(name).section(QLatin1Char('/'), 2, 2);
        const auto target = moved->constFind(rawId(oid));
        git_reference *raw = nullptr;
        if (dropped.contains(turn) || (cut > 0 && target == moved->cend())) {
            if (git_reference_remove(repository, name.constData()) != 0)
                return gitError(QStringLiteral("drop the turn %1").arg(turn));
        } else if (target != moved->cend()) {
            if (git_reference_create(&raw, repository, name.constData(), &*target, 1, "prune") != 0)
                return gitError(QStringLiteral("move the turn %1").arg(turn));
            git_reference_free(raw);
        }
    }
    if (cut > 0) {
        git_reference *raw = nullptr;
        const git_oid head = moved->value(rawId(line->last()));
        if (git_reference_create(&raw, repository, historyBranch, &head, 1, "prune") != 0)
            return gitError(QStringLiteral("move the history"));
        git_reference_free(raw);
    }
    return deleteUnreachable(repository, path, indexFile);
}

} // namespace

Result<HistoryUse> historyUse(git_repository *repository, const QString &path)
{
    const auto befores = references(repository, "refs/turns/*/before");
    if (!befores)
        return befores.error();
    const int fd = ::open(QFile::encodeName(path).constData(),
                          O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat status
    {
    };
    if (fd < 0 || ::fstat(fd, &status) != 0) {
        if (fd >= 0)
            ::close(fd);
        return HistoryUse{0, int(befores->size())};
    }
    // The directory itself too, as du counts it.
    return HistoryUse{qint64(status.st_blocks) * 512 + allocatedBytes(fd), int(befores->size())};
}

Result<PruneReport> pruneHistory(git_repository *repository, const QString &path,
                                 const QString &indexFile, const RetentionPolicy &policy)
{
    PruneReport report;
    Result<HistoryUse> use = historyUse(repository, path);
    if (!use)
        return use.error();
    report.before = report.after = *use;
    const Result<QList<git_oid>> line = historyLine(repository);
    if (!line)
        return line.error();
    Result<QList<RecordedTurn>> turns = recordedTurns(repository, *line);
    if (!turns)
        return turns.error();
    qsizetype keep =
        std::clamp<qsizetype>(policy.keepTurns, 1, std::max<qsizetype>(turns->size(), 1));
    for (;;) {
        if (turns->size() <= keep) {
            // Within the count; over the size, the turns kept are halved.
            if (use->bytes <= policy.sizeLimitBytes || turns->size() <= 1)
                break;
            keep = std::max<qsizetype>(1, turns->size() / 2);
        }
        const qsizetype drop = turns->size() - keep;
        if (const Result<void> dropped = dropOldest(repository, path, indexFile, *turns, drop);
            !dropped)
            return dropped.error();
        report.turnsDropped += int(drop);
        // Places moved with the rewrite; read them again.
        const Result<QList<git_oid>> rewritten = historyLine(repository);
        if (!rewritten)
            return rewritten.error();
        turns = recordedTurns(repository, *rewritten);
        if (!turns)
            return turns.error();
        use = historyUse(repository, path);
        if (!use)
            return use.error();
    }
    report.after = *use;
    return report;
}

} // namespace arizuko::history
