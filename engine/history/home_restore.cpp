#include "history/home_restore.h"

#include "posix/unique_fd.h"

#include <QList>
#include <QString>
#include <cerrno>
#include <cstring>
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
    // following it; a directory there is refused.
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
