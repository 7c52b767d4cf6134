#include "libvirt/channel_directory.h"

#include <QDir>
#include <QFile>
#include <cerrno>
#include <cstring>
#include <sys/xattr.h>
#include <unistd.h>

namespace arizuko::libvirt {
namespace {

// The kernel's POSIX ACL xattr layout (linux/posix_acl_xattr.h): a version,
// then entries sorted by tag, all little-endian (as on every host we build for).
struct AclEntry
{
    quint16 tag;
    quint16 permissions;
    quint32 id;
};

constexpr quint32 aclVersion = 2;
constexpr quint16 tagUserObject = 0x01;
constexpr quint16 tagUser = 0x02;
constexpr quint16 tagGroupObject = 0x04;
constexpr quint16 tagMask = 0x10;
constexpr quint16 tagOther = 0x20;
constexpr quint16 readWriteExecute = 7;
constexpr quint32 noId = 0xffffffff;

// Sockets and files made in `path` from now on: rwx for their owner and for
// `uid`, nothing for anyone else.
Result<void> grantNewEntriesTo(const QString &path, uid_t uid)
{
    const AclEntry entries[] = {
        {tagUserObject, readWriteExecute, noId},
        {tagUser, readWriteExecute, quint32(uid)},
        {tagGroupObject, 0, noId},
        {tagMask, readWriteExecute, noId},
        {tagOther, 0, noId},
    };
    QByteArray value(reinterpret_cast<const char *>(&aclVersion), sizeof aclVersion);
    value.append(reinterpret_cast<const char *>(entries), sizeof entries);
    const QByteArray file = QFile::encodeName(path);
    if (::setxattr(file.constData(), "system.posix_acl_default", value.constData(),
                   size_t(value.size()), 0) != 0)
        return makeError(QStringLiteral("turns.files"),
                         QStringLiteral("cannot give %1 a default ACL for this user (%2): the "
                                        "turn's VM channels are made there by libvirt as root, "
                                        "and only such an ACL lets this engine connect to them; "
                                        "the temporary directory's file system must support "
                                        "POSIX ACLs (set TMPDIR to one that does)")
                             .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    return {};
}

} // namespace

Result<std::unique_ptr<QTemporaryDir>> makeChannelDirectory(const QString &name)
{
    auto directory = std::make_unique<QTemporaryDir>(
        QDir(QDir::tempPath()).filePath(name + QStringLiteral("-XXXXXX")));
    if (!directory->isValid())
        return makeError(QStringLiteral("turns.files"),
                         QStringLiteral("cannot create a socket directory in %1: %2")
                             .arg(QDir::tempPath(), directory->errorString()));
    // Root connects to anything; libvirt's sockets are root's already.
    if (const uid_t uid = ::getuid(); uid != 0) {
        if (const Result<void> granted = grantNewEntriesTo(directory->path(), uid); !granted)
            return granted.error();
    }
    return directory;
}

} // namespace arizuko::libvirt
