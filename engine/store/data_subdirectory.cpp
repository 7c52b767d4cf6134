#include "store/data_subdirectory.h"

#include <QFile>
#include <QStringList>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::store {
namespace {

Error unsafe(const QString &path, const QString &why)
{
    return makeError(QStringLiteral("store.unsafe-path"),
                     QStringLiteral("%1 %2; it is never followed or used").arg(path, why));
}

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Why `name` in `parent` could not be opened as a directory without
// following it: a link says so, rather than ENOTDIR or ELOOP.
Error openFailure(int parent, const QByteArray &name, const QString &path, int error)
{
    struct stat status{};
    if ((error == ENOTDIR || error == ELOOP) &&
        ::fstatat(parent, name.constData(), &status, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(status.st_mode))
            return unsafe(path, QStringLiteral("is a symbolic link"));
        return unsafe(path, QStringLiteral("is not a directory"));
    }
    if (error == ENOENT)
        return makeError(QStringLiteral("store.path-missing"),
                         QStringLiteral("%1 does not exist").arg(path));
    return makeError(QStringLiteral("store.path"),
                     QStringLiteral("cannot open %1: %2").arg(path, systemError(error)));
}

int openDirectoryAt(int parent, const QByteArray &name)
{
    return ::openat(parent, name.constData(), O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
}

} // namespace

Result<OpenedDirectory> openBelowDataDir(const QString &dataDir, const QString &relative,
                                         bool create)
{
    const QStringList names = relative.split(QLatin1Char('/'));
    for (const QString &name : names) {
        if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..") ||
            name.contains(QChar(0)))
            return makeError(
                QStringLiteral("store.path"),
                QStringLiteral("'%1' is not a path below the data directory").arg(relative));
    }
    OpenedDirectory opened;
    opened.fd.reset(
        ::open(QFile::encodeName(dataDir).constData(), O_DIRECTORY | O_RDONLY | O_CLOEXEC));
    if (!opened.fd)
        return makeError(QStringLiteral("store.path"),
                         QStringLiteral("cannot open the data directory %1: %2")
                             .arg(dataDir, systemError(errno)));
    QString path = dataDir;
    for (const QString &name : names) {
        path += QLatin1Char('/') + name;
        const QByteArray encoded = QFile::encodeName(name);
        int fd = openDirectoryAt(opened.fd.get(), encoded);
        if (fd < 0 && errno == ENOENT && create) {
            if (::mkdirat(opened.fd.get(), encoded.constData(), 0700) != 0 && errno != EEXIST)
                return makeError(
                    QStringLiteral("store.path"),
                    QStringLiteral("cannot create %1: %2").arg(path, systemError(errno)));
            fd = openDirectoryAt(opened.fd.get(), encoded);
        }
        if (fd < 0)
            return openFailure(opened.fd.get(), encoded, path, errno);
        opened.fd.reset(fd);
        struct stat status{};
        if (::fstat(fd, &status) != 0)
            return makeError(QStringLiteral("store.path"),
                             QStringLiteral("cannot inspect %1: %2").arg(path, systemError(errno)));
        // Another user's directory is not the engine's to hand to a VM.
        if (status.st_uid != ::geteuid())
            return unsafe(path, QStringLiteral("belongs to user %1, not to the engine's user %2")
                                    .arg(status.st_uid)
                                    .arg(::geteuid()));
        opened.identity = {quint64(status.st_dev), quint64(status.st_ino)};
    }
    return opened;
}

} // namespace arizuko::store
