#include "history/home_restore.h"

#include "posix/unique_fd.h"

#include <QList>
#include <QString>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::history {
namespace {

Error restoreError(const QByteArray &path, const QString &what, int error)
{
    QString why = QString::fromLocal8Bit(std::strerror(error));
    if (error == ELOOP || error == ENOTDIR)
        why = QStringLiteral("a directory on the way is a symbolic link or not a directory");
    if (error == ENOTEMPTY)
        why = QStringLiteral("a directory holding other entries is there");
    return makeError(
        QStringLiteral("history.restore"),
        QStringLiteral("cannot %1 %2 in the home: %3").arg(what, QString::fromUtf8(path), why));
}

// The directory holding `path`'s last name, opened name by name.
Result<posix::UniqueFd> openParent(int home, const QByteArray &path, bool create)
{
    const QList<QByteArray> names = path.split('/');
    posix::UniqueFd parent(::fcntl(home, F_DUPFD_CLOEXEC, 0));
    for (qsizetype i = 0; i + 1 < names.size(); ++i) {
        const QByteArray &name = names[i];
        if (name.isEmpty() || name == "." || name == "..")
            return restoreError(path, QStringLiteral("reach"), EINVAL);
        int next = ::openat(parent.get(), name.constData(),
                            O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && create) {
            if (::mkdirat(parent.get(), name.constData(), 0700) != 0 && errno != EEXIST)
                return restoreError(path, QStringLiteral("create the directory of"), errno);
            next = ::openat(parent.get(), name.constData(),
                            O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (next < 0 && errno == ENOENT)
            return makeError(QStringLiteral("history.path-missing"),
                             QStringLiteral("the directory of %1 is not in the home")
                                 .arg(QString::fromUtf8(path)));
        if (next < 0)
            return restoreError(path, QStringLiteral("reach"), errno);
        parent.reset(next);
    }
    return parent;
}

QByteArray lastName(const QByteArray &path)
{
    return path.mid(path.lastIndexOf('/') + 1);
}

QByteArray temporaryName(const QByteArray &name)
{
    return ".arizuko-undo-" + QByteArray::number(::getpid()) + '-' + name.left(64);
}

// Deep enough for any tree an undo empties; a deeper one stays, reported.
constexpr int maxEmptyDepth = 64;

// Removes the directory `name` below `parent` when it holds nothing but
// empty directories: what an undo's removals leave where a file or a link
// comes back. Anything else in it (a file written since, a FIFO the history
// skipped) keeps it, with ENOTEMPTY.
int removeEmptyTree(int parent, const QByteArray &name, int depth)
{
    if (depth > maxEmptyDepth)
        return ENOTEMPTY;
    const int fd =
        ::openat(parent, name.constData(), O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno;
    DIR *directory = ::fdopendir(fd);
    if (!directory) {
        const int error = errno;
        ::close(fd);
        return error;
    }
    int error = 0;
    for (const dirent *entry = nullptr; error == 0 && (entry = ::readdir(directory));) {
        const QByteArray child(entry->d_name);
        if (child == "." || child == "..")
            continue;
        struct stat status = {};
        if (::fstatat(fd, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0)
            error = errno;
        else if (!S_ISDIR(status.st_mode))
            error = ENOTEMPTY;
        else
            error = removeEmptyTree(fd, child, depth + 1);
    }
    ::closedir(directory);
    if (error == 0 && ::unlinkat(parent, name.constData(), AT_REMOVEDIR) != 0)
        error = errno;
    return error;
}

} // namespace

Result<void> restoreEntry(int home, const QByteArray &path, RestoredKind kind,
                          const QByteArray &content)
{
    const Result<posix::UniqueFd> parent = openParent(home, path, true);
    if (!parent)
        return parent.error();
    const QByteArray name = lastName(path);
    if (name.isEmpty() || name == "." || name == "..")
        return restoreError(path, QStringLiteral("restore"), EINVAL);
    const QByteArray temporary = temporaryName(name);
    ::unlinkat(parent->get(), temporary.constData(), 0);
    if (kind == RestoredKind::Link) {
        if (::symlinkat(content.constData(), parent->get(), temporary.constData()) != 0)
            return restoreError(path, QStringLiteral("restore the link"), errno);
    } else {
        const mode_t mode = kind == RestoredKind::ExecutableFile ? 0755 : 0644;
        const posix::UniqueFd file(::openat(parent->get(), temporary.constData(),
                                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                            mode));
        if (!file)
            return restoreError(path, QStringLiteral("restore"), errno);
        qsizetype done = 0;
        while (done < content.size()) {
            const ssize_t n =
                ::write(file.get(), content.constData() + done, size_t(content.size() - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                const int error = errno;
                ::unlinkat(parent->get(), temporary.constData(), 0);
                return restoreError(path, QStringLiteral("write"), error);
            }
            done += n;
        }
    }
    // rename replaces whatever name is there (a link included) without
    // following it, but not a directory: one the undo emptied goes first.
    struct stat status = {};
    if (::fstatat(parent->get(), name.constData(), &status, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(status.st_mode)) {
        if (const int error = removeEmptyTree(parent->get(), name, 0); error != 0) {
            ::unlinkat(parent->get(), temporary.constData(), 0);
            return restoreError(path, QStringLiteral("restore"), error);
        }
    }
    if (::renameat(parent->get(), temporary.constData(), parent->get(), name.constData()) != 0) {
        const int error = errno;
        ::unlinkat(parent->get(), temporary.constData(), 0);
        return restoreError(path, QStringLiteral("restore"), error);
    }
    return {};
}

Result<void> removeEntry(int home, const QByteArray &path)
{
    const Result<posix::UniqueFd> parent = openParent(home, path, false);
    if (!parent) {
        // Its directory is gone: so is the entry.
        if (parent.error().code == u"history.path-missing")
            return {};
        return parent.error();
    }
    const QByteArray name = lastName(path);
    if (::unlinkat(parent->get(), name.constData(), 0) != 0 && errno != ENOENT)
        return restoreError(path, QStringLiteral("remove"), errno);
    return {};
}

} // namespace arizuko::history
