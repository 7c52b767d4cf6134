#include "agent/home_directory.h"

#include "posix/unique_fd.h"

#include <QFile>
#include <QStringList>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace arizuko::agent {

struct HomeDirectory::Descriptor
{
    explicit Descriptor(posix::UniqueFd directory)
        : owned(std::move(directory))
        , fd(owned.get())
    {}
    const posix::UniqueFd owned;
    const int fd;
};

namespace {

Error homeError(const QString &home, const QString &relative, const QString &what, int error)
{
    QString why = QString::fromLocal8Bit(std::strerror(error));
    if (error == ELOOP || error == EXDEV)
        why = QStringLiteral("a symbolic link or a path out of the home, which is never followed");
    return makeError(
        QStringLiteral("home.unsafe-path"),
        QStringLiteral("cannot %1 %2 in the home %3: %4").arg(what, relative, home, why));
}

// RESOLVE_BENEATH keeps every lookup inside the home; RESOLVE_NO_SYMLINKS
// refuses a link anywhere on the path, even one that stays inside.
int openBeneath(int directory, const QByteArray &relative, int flags, mode_t mode = 0)
{
    open_how how{};
    how.flags = std::uint64_t(flags | O_CLOEXEC | O_NOFOLLOW);
    how.mode = mode;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    do {
        fd = ::syscall(SYS_openat2, directory, relative.constData(), &how, sizeof how);
    } while (fd < 0 && errno == EAGAIN);
    return int(fd);
}

bool validRelative(const QString &relative)
{
    if (relative.isEmpty() || relative.startsWith(QLatin1Char('/')) ||
        relative.contains(QChar(0)))
        return false;
    const QStringList parts = relative.split(QLatin1Char('/'));
    return std::none_of(parts.begin(), parts.end(), [](const QString &part) {
        return part.isEmpty() || part == QLatin1String(".") || part == QLatin1String("..");
    });
}

} // namespace

HomeDirectory::HomeDirectory(QString path, store::DirectoryIdentity identity,
                             std::shared_ptr<Descriptor> directory)
    : m_path(std::move(path))
    , m_identity(identity)
    , m_directory(std::move(directory))
{
}

Result<HomeDirectory> HomeDirectory::open(const QString &dataDir, const folders::Home &home)
{
    Result<store::OpenedDirectory> opened = folders::Folders::openHome(dataDir, home.id);
    if (!opened)
        return makeError(QStringLiteral("home.open"),
                         QStringLiteral("cannot open the folder home %1: %2")
                             .arg(home.path, opened.error().message));
    return HomeDirectory(home.path, opened->identity,
                         std::make_shared<Descriptor>(std::move(opened->fd)));
}

Result<std::optional<QByteArray>> HomeDirectory::read(const QString &relative,
                                                      qint64 maxBytes) const
{
    if (!validRelative(relative))
        return homeError(m_path, relative, QStringLiteral("read"), EINVAL);
    // O_NONBLOCK: a FIFO planted in the home must not hang the engine.
    const posix::UniqueFd file(
        openBeneath(m_directory->fd, QFile::encodeName(relative), O_RDONLY | O_NONBLOCK));
    if (file.get() < 0) {
        if (errno == ENOENT)
            return std::optional<QByteArray>();
        return homeError(m_path, relative, QStringLiteral("read"), errno);
    }
    struct stat status{};
    if (::fstat(file.get(), &status) != 0)
        return homeError(m_path, relative, QStringLiteral("read"), errno);
    if (!S_ISREG(status.st_mode))
        return makeError(
            QStringLiteral("home.unsafe-path"),
            QStringLiteral("%1 in the home %2 is not a regular file").arg(relative, m_path));
    // A second link may be a file outside the home that the agent was given
    // a name for; reading it would carry that file into the agent's reach.
    if (status.st_nlink != 1)
        return makeError(QStringLiteral("home.unsafe-path"),
                         QStringLiteral("%1 in the home %2 has %3 hard links; only a file with "
                                        "one link is read")
                             .arg(relative, m_path)
                             .arg(status.st_nlink));
    if (status.st_size > maxBytes)
        return makeError(QStringLiteral("home.too-large"),
                         QStringLiteral("%1 in the home %2 is %3 bytes, more than %4")
                             .arg(relative, m_path)
                             .arg(status.st_size)
                             .arg(maxBytes));
    QByteArray data;
    data.resize(qsizetype(status.st_size));
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::read(file.get(), data.data() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return homeError(m_path, relative, QStringLiteral("read"), errno);
        if (n == 0)
            break;
        done += n;
    }
    data.truncate(done);
    return std::optional<QByteArray>(std::move(data));
}

Result<std::optional<QStringList>> HomeDirectory::entries(const QString &relative) const
{
    if (!relative.isEmpty() && !validRelative(relative))
        return homeError(m_path, relative, QStringLiteral("list"), EINVAL);
    const QByteArray path =
        relative.isEmpty() ? QByteArrayLiteral(".") : QFile::encodeName(relative);
    const int fd = openBeneath(m_directory->fd, path, O_DIRECTORY | O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT)
            return std::optional<QStringList>();
        int error = errno;
        // O_NOFOLLOW | O_DIRECTORY on a link reports ENOTDIR; say it was a link.
        struct stat status{};
        if (error == ENOTDIR &&
            ::fstatat(m_directory->fd, path.constData(), &status, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(status.st_mode))
            error = ELOOP;
        return homeError(m_path, relative, QStringLiteral("list"), error);
    }
    DIR *directory = ::fdopendir(fd); // owns fd from here on
    if (!directory) {
        const int error = errno;
        ::close(fd);
        return homeError(m_path, relative, QStringLiteral("list"), error);
    }
    QStringList names;
    while (const dirent *entry = ::readdir(directory)) {
        const QString name = QFile::decodeName(entry->d_name);
        if (name != QLatin1String(".") && name != QLatin1String(".."))
            names << name;
    }
    ::closedir(directory);
    names.sort();
    return std::optional<QStringList>(names);
}

Result<void> HomeDirectory::create(const QString &relative, const QByteArray &data) const
{
    if (!validRelative(relative))
        return homeError(m_path, relative, QStringLiteral("create"), EINVAL);
    const QStringList parts = relative.split(QLatin1Char('/'));
    posix::UniqueFd parent(::fcntl(m_directory->fd, F_DUPFD_CLOEXEC, 0));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const QByteArray name = QFile::encodeName(parts[i]);
        int next = openBeneath(parent.get(), name, O_DIRECTORY | O_RDONLY);
        if (next < 0 && errno == ENOENT) {
            if (::mkdirat(parent.get(), name.constData(), 0700) != 0 && errno != EEXIST)
                return homeError(m_path, relative, QStringLiteral("create"), errno);
            next = openBeneath(parent.get(), name, O_DIRECTORY | O_RDONLY);
        }
        if (next < 0)
            return homeError(m_path, relative, QStringLiteral("create"), errno);
        parent.reset(next);
    }
    const posix::UniqueFd file(openBeneath(parent.get(), QFile::encodeName(parts.last()),
                              O_WRONLY | O_CREAT | O_EXCL, 0600));
    if (file.get() < 0)
        return homeError(m_path, relative, QStringLiteral("create"), errno);
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(file.get(), data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return homeError(m_path, relative, QStringLiteral("write"), errno);
        done += n;
    }
    return {};
}

} // namespace arizuko::agent
