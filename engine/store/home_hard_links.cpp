#include "store/home_hard_links.h"

#include "posix/unique_fd.h"

#include <QHash>
#include <QList>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::store {
namespace {

// Deeper directories are reported unchecked rather than opened: each level
// holds a descriptor.
constexpr int maxDepth = 256;

struct LinkedFile
{
    QByteArray path; // below the home
    dev_t device = 0;
    ino_t inode = 0;
    nlink_t links = 0;
};

QString why(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

void collect(int directory, const QByteArray &prefix, dev_t device, int depth,
             QList<LinkedFile> &found, QStringList &unchecked)
{
    const int listed = ::fcntl(directory, F_DUPFD_CLOEXEC, 0);
    DIR *entries = listed >= 0 ? ::fdopendir(listed) : nullptr;
    if (!entries) {
        if (listed >= 0)
            ::close(listed);
        unchecked
            << QStringLiteral("%1 (cannot list it: %2)").arg(QString::fromUtf8(prefix), why(errno));
        return;
    }
    for (const dirent *entry = nullptr; (entry = ::readdir(entries));) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        const QByteArray path = prefix.isEmpty() ? name : prefix + '/' + name;
        struct stat status = {};
        if (::fstatat(directory, name.constData(), &status, AT_SYMLINK_NOFOLLOW) != 0 ||
            status.st_dev != device)
            continue; // gone since, or mounted from elsewhere: not the home's inode
        if (S_ISREG(status.st_mode) && status.st_nlink > 1) {
            found.append({path, status.st_dev, status.st_ino, status.st_nlink});
        } else if (S_ISDIR(status.st_mode)) {
            if (depth >= maxDepth) {
                unchecked << QStringLiteral("%1 (deeper than %2 directories)")
                                 .arg(QString::fromUtf8(path))
                                 .arg(maxDepth);
                continue;
            }
            const posix::UniqueFd below(::openat(directory, name.constData(),
                                                 O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
            if (below)
                collect(below.get(), path, device, depth + 1, found, unchecked);
        }
    }
    ::closedir(entries);
}

// The directory holding `path`'s last name, opened name by name.
posix::UniqueFd openParent(int home, const QByteArray &path)
{
    const QList<QByteArray> names = path.split('/');
    posix::UniqueFd parent(::fcntl(home, F_DUPFD_CLOEXEC, 0));
    for (qsizetype i = 0; parent && i + 1 < names.size(); ++i)
        parent.reset(::openat(parent.get(), names[i].constData(),
                              O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    return parent;
}

int copyContent(int from, int to)
{
    char buffer[64 * 1024];
    for (;;) {
        const ssize_t got = ::read(from, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return got < 0 ? errno : 0;
        for (ssize_t done = 0; done < got;) {
            const ssize_t n = ::write(to, buffer + done, size_t(got - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return errno;
            done += n;
        }
    }
}

// Gives `file` an inode of its own: its content copied to a new file beside
// it, renamed over it. Returns 0 or why not.
int copyOver(int home, const LinkedFile &file)
{
    const posix::UniqueFd parent = openParent(home, file.path);
    if (!parent)
        return errno;
    const QByteArray name = file.path.mid(file.path.lastIndexOf('/') + 1);
    const posix::UniqueFd source(
        ::openat(parent.get(), name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat status = {};
    if (!source || ::fstat(source.get(), &status) != 0)
        return errno;
    if (!S_ISREG(status.st_mode) || status.st_dev != file.device || status.st_ino != file.inode)
        return ESTALE; // replaced since the walk: not the file it saw
    QByteArray temporary;
    posix::UniqueFd copy;
    for (int attempt = 0; !copy && attempt < 100; ++attempt) {
        temporary = ".arizuko-unlink-" + QByteArray::number(::getpid()) + '-' +
                    QByteArray::number(attempt) + '-' + name.left(64);
        copy.reset(::openat(parent.get(), temporary.constData(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!copy && errno != EEXIST)
            return errno;
    }
    if (!copy)
        return EEXIST;
    const timespec times[2] = {status.st_atim, status.st_mtim};
    int error = copyContent(source.get(), copy.get());
    if (error == 0 &&
        (::fchmod(copy.get(), status.st_mode & 0777) != 0 || ::futimens(copy.get(), times) != 0 ||
         ::renameat(parent.get(), temporary.constData(), parent.get(), name.constData()) != 0))
        error = errno;
    if (error != 0)
        ::unlinkat(parent.get(), temporary.constData(), 0);
    return error;
}

} // namespace

HardLinksBroken breakOutsideHardLinks(int home, const QString &shown)
{
    HardLinksBroken result;
    struct stat status = {};
    if (::fstat(home, &status) != 0) {
        result.notCopied
            << QStringLiteral("%1: cannot look for hard links: %2").arg(shown, why(errno));
        return result;
    }
    QList<LinkedFile> linked;
    QStringList unchecked;
    collect(home, {}, status.st_dev, 0, linked, unchecked);
    for (const QString &name : std::as_const(unchecked))
        result.notCopied << QStringLiteral("%1/%2 was not checked for hard links").arg(shown, name);
    // Names of one inode inside the home may stay one file; an inode with
    // more names than these has one elsewhere.
    QHash<std::pair<dev_t, ino_t>, nlink_t> namesHere;
    for (const LinkedFile &file : std::as_const(linked))
        ++namesHere[{file.device, file.inode}];
    for (const LinkedFile &file : std::as_const(linked)) {
        if (namesHere.value({file.device, file.inode}) >= file.links)
            continue;
        if (const int error = copyOver(home, file); error != 0)
            result.notCopied << QStringLiteral(
                                    "%1/%2 still shares its content with a file outside "
                                    "this home (a hard link); it could not be copied: %3")
                                    .arg(shown, QString::fromUtf8(file.path), why(error));
        else
            ++result.copied;
    }
    return result;
}

} // namespace arizuko::store
