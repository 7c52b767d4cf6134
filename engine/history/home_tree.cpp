#include "history/home_tree.h"

#include "history/git_handles.h"
#include "history/tree_names.h"
#include "posix/unique_fd.h"

#include <QElapsedTimer>
#include <QLocale>
#include <cerrno>
#include <climits>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::history {
namespace {

// Deeper directories are skipped: each level holds a descriptor open.
constexpr int maxDepth = 128;
// Read in pieces so that the time budget is checked while a large file is.
constexpr qsizetype readChunk = 16 << 20;

qint64 nanoseconds(const timespec &time)
{
    return qint64(time.tv_sec) * 1000000000 + time.tv_nsec;
}

quint32 gitMode(const struct stat &status)
{
    if (S_ISLNK(status.st_mode))
        return GIT_FILEMODE_LINK;
    return (status.st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
}

QString skipReason(mode_t mode)
{
    if (S_ISFIFO(mode))
        return QStringLiteral("fifo");
    if (S_ISSOCK(mode))
        return QStringLiteral("socket");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("device");
    return QStringLiteral("unknown type");
}

class Walk
{
public:
    Walk(git_repository *repository, const SnapshotOptions &options, const SnapshotIndex &previous,
         dev_t device)
        : m_repository(repository)
        , m_options(options)
        , m_previous(previous)
        , m_device(device)
    {
        git_oid_fromstr(&m_emptyTree, "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
        m_clock.start();
    }

    Result<git_oid> directory(int fd, const QByteArray &prefix, int depth);

    HomeTree result;
    SnapshotIndex next;

private:
    // The blob for one entry; nullopt when it is skipped (and listed).
    Result<std::optional<git_oid>> file(int parent, const QByteArray &name, const QByteArray &path,
                                        const struct stat &status);
    Result<std::optional<git_oid>> link(int parent, const QByteArray &name, const QByteArray &path);
    // The placeholder of a file recorded by its size and time only.
    Result<git_oid> unstored(const QByteArray &path, const struct stat &status, BudgetLimit budget);
    // Which budget, if any, forbids reading `size` more bytes now.
    BudgetLimit budgetLeft(qint64 size) const;
    // `data` filled from `fd`; Time when the time budget ran out meanwhile.
    Result<BudgetLimit> readAll(int fd, const QByteArray &path, QByteArray &data);
    void skip(const QByteArray &path, const QString &why) { result.skipped.append({path, why}); }

    git_repository *m_repository;
    const SnapshotOptions &m_options;
    const SnapshotIndex &m_previous;
    dev_t m_device;
    git_oid m_emptyTree{};
    QElapsedTimer m_clock;
};

Error systemError(const QByteArray &path, const QString &what, int error)
{
    return makeError(
        QStringLiteral("history.read"),
        QStringLiteral("cannot %1 %2 in the home: %3")
            .arg(what, QString::fromUtf8(path), QString::fromLocal8Bit(std::strerror(error))));
}

Result<git_oid> Walk::directory(int fd, const QByteArray &prefix, int depth)
{
    const int listed = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    DIR *stream = listed < 0 ? nullptr : ::fdopendir(listed);
    if (!stream) {
        if (listed >= 0)
            ::close(listed);
        return systemError(prefix, QStringLiteral("list"), errno);
    }
    const std::unique_ptr<DIR, int (*)(DIR *)> closer(stream, ::closedir);
    git_treebuilder *raw = nullptr;
    if (git_treebuilder_new(&raw, m_repository, nullptr) != 0)
        return gitError(QStringLiteral("start a tree"));
    const TreeBuilder builder(raw);

    while (const dirent *entry = ::readdir(stream)) {
        if (m_options.stop && m_options.stop->load(std::memory_order_relaxed))
            return makeError(QStringLiteral("history.stopped"),
                             QStringLiteral("the snapshot was stopped: the engine is closing"));
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        const QByteArray path = prefix.isEmpty() ? name : prefix + '/' + name;
        if (name == ".git" && !m_options.includeGitDirectory)
            continue;
        struct stat status
        {
        };
        if (::fstatat(fd, name.constData(), &status, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) // gone since it was listed
                continue;
            return systemError(path, QStringLiteral("inspect"), errno);
        }
        // A mount point, a directory or a single file bound in, shows
        // another filesystem's content, which is not the home's.
        if (status.st_dev != m_device) {
            skip(path, QStringLiteral("other filesystem"));
            continue;
        }
        std::optional<git_oid> oid;
        quint32 mode = gitMode(status);
        if (S_ISDIR(status.st_mode)) {
            if (depth >= maxDepth) {
                skip(path, QStringLiteral("too deep"));
                continue;
            }
            const posix::UniqueFd child(
                ::openat(fd, name.constData(), O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
            if (!child) {
                skip(path, QStringLiteral("unreadable"));
                continue;
            }
            const Result<git_oid> tree = directory(child.get(), path, depth + 1);
            if (!tree)
                return tree.error();
            // git keeps no empty directories; neither does the history.
            if (git_oid_equal(&*tree, &m_emptyTree))
                continue;
            oid = *tree;
            mode = GIT_FILEMODE_TREE;
        } else if (S_ISLNK(status.st_mode)) {
            auto linked = link(fd, name, path);
            if (!linked)
                return linked.error();
            oid = *linked;
        } else if (S_ISREG(status.st_mode)) {
            auto read = file(fd, name, path, status);
            if (!read)
                return read.error();
            oid = *read;
        } else {
            skip(path, skipReason(status.st_mode));
            continue;
        }
        if (!oid)
            continue;
        const QByteArray stored = storedName(name);
        if (git_treebuilder_insert(nullptr, builder.get(), stored.constData(), &*oid,
                                   git_filemode_t(mode)) != 0) {
            git_error_clear();
            // A name git refuses as a tree entry (".git", "git~1"): stored
            // escaped (tree_names.h); one refused even so is listed rather
            // than failing the whole snapshot.
            if (stored != name ||
                git_treebuilder_insert(nullptr, builder.get(), escapedName(name).constData(), &*oid,
                                       git_filemode_t(mode)) != 0) {
                skip(path, QStringLiteral("name"));
                git_error_clear();
            }
        }
    }
    git_oid tree{};
    if (git_treebuilder_write(&tree, builder.get()) != 0)
        return gitError(QStringLiteral("write a tree"));
    return tree;
}

Result<std::optional<git_oid>> Walk::link(int parent, const QByteArray &name,
                                          const QByteArray &path)
{
    QByteArray target(PATH_MAX, Qt::Uninitialized);
    const ssize_t length =
        ::readlinkat(parent, name.constData(), target.data(), size_t(target.size()));
    if (length < 0) {
        skip(path, QStringLiteral("unreadable"));
        return std::optional<git_oid>();
    }
    git_oid oid{};
    if (git_blob_create_from_buffer(&oid, m_repository, target.constData(), size_t(length)) != 0)
        return gitError(QStringLiteral("store the link %1").arg(QString::fromUtf8(path)));
    return std::optional<git_oid>(oid);
}

Result<std::optional<git_oid>> Walk::file(int parent, const QByteArray &name,
                                          const QByteArray &path, const struct stat &listed)
{
    // A second name may be a file outside the home that was linked in;
    // reading it would copy that file into the history (and an undo back
    // into the home).
    if (listed.st_nlink != 1) {
        skip(path, QStringLiteral("hard link"));
        return std::optional<git_oid>();
    }
    const bool over = listed.st_size > m_options.fileLimit;
    IndexEntry entry{listed.st_size,
                     nanoseconds(listed.st_mtim),
                     nanoseconds(listed.st_ctim),
                     listed.st_ino,
                     gitMode(listed),
                     !over,
                     {}};
    if (const IndexEntry *known = m_previous.find(path);
        known && known->size == entry.size && known->modifiedNs == entry.modifiedNs &&
        known->changedNs == entry.changedNs && known->inode == entry.inode &&
        known->mode == entry.mode && known->stored == entry.stored) {
        ++result.filesReused;
        next.insert(path, *known);
        if (!known->stored)
            result.unstored.append({path, known->size, BudgetLimit::None});
        return std::optional<git_oid>(known->blob);
    }
    // Over the limit: its size and time say enough, and a sparse file of
    // a terabyte costs nothing. Neither is read once a budget ran out.
    const BudgetLimit budget = over ? BudgetLimit::None : budgetLeft(listed.st_size);
    if (over || budget != BudgetLimit::None) {
        const Result<git_oid> placeholder = unstored(path, listed, budget);
        if (!placeholder)
            return placeholder.error();
        entry.stored = false;
        entry.blob = *placeholder;
        next.insert(path, entry);
        return std::optional<git_oid>(*placeholder);
    }
    // O_NONBLOCK: a file swapped for a FIFO since the listing must not hang
    // the walk; O_NOFOLLOW: nor may one swapped for a link be followed.
    const posix::UniqueFd fd(::openat(parent, name.constData(),
                                      O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat status
    {
    };
    if (!fd || ::fstat(fd.get(), &status) != 0) {
        skip(path, QStringLiteral("unreadable"));
        return std::optional<git_oid>();
    }
    if (!S_ISREG(status.st_mode) || status.st_ino != listed.st_ino || status.st_nlink != 1 ||
        status.st_size > m_options.fileLimit) {
        skip(path, QStringLiteral("changed while read"));
        return std::optional<git_oid>();
    }
    ++result.filesRead;
    QByteArray data;
    const Result<BudgetLimit> read = readAll(fd.get(), path, data);
    if (!read)
        return read.error();
    git_oid oid{};
    if (*read != BudgetLimit::None) {
        // The time ran out while it was read: what was read is dropped.
        const Result<git_oid> placeholder = unstored(path, status, *read);
        if (!placeholder)
            return placeholder.error();
        oid = *placeholder;
        entry.stored = false;
    } else {
        if (git_blob_create_from_buffer(&oid, m_repository, data.constData(),
                                        size_t(data.size())) != 0)
            return gitError(QStringLiteral("store %1").arg(QString::fromUtf8(path)));
        entry.stored = true;
    }
    entry.blob = oid;
    entry.size = status.st_size;
    entry.modifiedNs = nanoseconds(status.st_mtim);
    entry.changedNs = nanoseconds(status.st_ctim);
    next.insert(path, entry);
    return std::optional<git_oid>(oid);
}

BudgetLimit Walk::budgetLeft(qint64 size) const
{
    if (m_clock.elapsed() >= m_options.timeBudgetMs)
        return BudgetLimit::Time;
    if (result.bytesRead + size > m_options.byteBudget)
        return BudgetLimit::Bytes;
    return BudgetLimit::None;
}

Result<BudgetLimit> Walk::readAll(int fd, const QByteArray &path, QByteArray &data)
{
    QByteArray chunk(readChunk, Qt::Uninitialized);
    for (;;) {
        if (m_clock.elapsed() >= m_options.timeBudgetMs)
            return BudgetLimit::Time;
        const ssize_t n = ::read(fd, chunk.data(), size_t(chunk.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return systemError(path, QStringLiteral("read"), errno);
        if (n == 0)
            return BudgetLimit::None;
        // A file that grew past the limit while read is cut there; the
        // next snapshot sees its new size.
        if (data.size() + n > m_options.fileLimit)
            return BudgetLimit::None;
        data.append(chunk.constData(), n);
        result.bytesRead += n;
    }
}

Result<git_oid> Walk::unstored(const QByteArray &path, const struct stat &status,
                               BudgetLimit budget)
{
    result.unstored.append({path, status.st_size, budget});
    if (budget != BudgetLimit::None) {
        if (result.budget == BudgetLimit::None)
            result.budget = budget;
        ++result.budgetFiles;
    }
    QByteArray placeholder =
        QByteArray(unstoredMarker) + "size: " + QByteArray::number(qint64(status.st_size)) +
        "\nmodified: " + QByteArray::number(nanoseconds(status.st_mtim)) + '\n';
    if (budget != BudgetLimit::None)
        placeholder += QByteArray(budgetMarker) + " (" + budgetLimitName(budget).toLatin1() + ")\n";
    git_oid oid{};
    if (git_blob_create_from_buffer(&oid, m_repository, placeholder.constData(),
                                    size_t(placeholder.size())) != 0)
        return gitError(QStringLiteral("store %1").arg(QString::fromUtf8(path)));
    return oid;
}

} // namespace

QString budgetLimitName(BudgetLimit limit)
{
    switch (limit) {
    case BudgetLimit::Bytes:
        return QStringLiteral("bytes");
    case BudgetLimit::Time:
        return QStringLiteral("time");
    case BudgetLimit::None:
        break;
    }
    return QString();
}

QString budgetNote(BudgetLimit limit, int files, const SnapshotOptions &options)
{
    if (limit == BudgetLimit::None)
        return QString();
    const QString budget =
        limit == BudgetLimit::Time
            ? QStringLiteral("time budget (%1 s)").arg(options.timeBudgetMs / 1000.0)
            : QStringLiteral("byte budget (%1)")
                  .arg(QLocale::c().formattedDataSize(options.byteBudget));
    return QStringLiteral("the snapshot ran out of its %1: %2 file(s) were recorded by size and "
                          "time only, not read")
        .arg(budget)
        .arg(files);
}

Result<HomeTree> writeHomeTree(git_repository *repository, int home, const SnapshotOptions &options,
                               SnapshotIndex &index)
{
    struct stat status
    {
    };
    if (::fstat(home, &status) != 0)
        return systemError(QByteArrayLiteral("."), QStringLiteral("inspect"), errno);
    Walk walk(repository, options, index, status.st_dev);
    const Result<git_oid> tree = walk.directory(home, QByteArray(), 0);
    if (!tree)
        return tree.error();
    walk.result.tree = *tree;
    index = std::move(walk.next);
    return std::move(walk.result);
}

} // namespace arizuko::history
