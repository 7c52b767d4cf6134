#include "secrets/key_file.h"

#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::secrets {
namespace {

constexpr int lockTimeoutMs = 10000;

class FileDescriptor
{
public:
    explicit FileDescriptor(int descriptor)
        : m_descriptor(descriptor)
    {}
    ~FileDescriptor()
    {
        if (m_descriptor >= 0)
            ::close(m_descriptor);
    }
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    int get() const { return m_descriptor; }
    int release() { return std::exchange(m_descriptor, -1); }

private:
    int m_descriptor;
};

Error fileError(const QString &what, const QString &path)
{
    return makeError(
        QStringLiteral("secrets.key-file"),
        QStringLiteral("%1 %2: %3").arg(what, path, QString::fromLocal8Bit(std::strerror(errno))));
}

bool writeAll(int descriptor, const QByteArray &data)
{
    qsizetype written = 0;
    while (written < data.size()) {
        const ssize_t result = ::write(descriptor, data.constData() + written,
                                       static_cast<size_t>(data.size() - written));
        if (result < 0 && errno == EINTR)
            continue;
        if (result <= 0)
            return false;
        written += result;
    }
    return true;
}

} // namespace

KeyFile::KeyFile(QString path)
    : m_path(std::move(path))
{}

QString KeyFile::defaultPath(const QString &dataDir)
{
    return dataDir + QStringLiteral("/master.key");
}

QString KeyFile::description() const
{
    return QStringLiteral("key file %1 (mode 0600)").arg(m_path);
}

Result<std::optional<KeyRing>> KeyFile::load()
{
    const QByteArray path = QFile::encodeName(m_path);
    struct stat status
    {
    };
    if (::lstat(path.constData(), &status) != 0) {
        if (errno == ENOENT)
            return std::optional<KeyRing>();
        return fileError(QStringLiteral("cannot inspect the key file"), m_path);
    }
    if (!S_ISREG(status.st_mode))
        return makeError(QStringLiteral("secrets.key-file"),
                         QStringLiteral("the key file %1 is not a regular file").arg(m_path));
    if ((status.st_mode & 077) != 0 || status.st_uid != ::geteuid())
        return makeError(
            QStringLiteral("secrets.key-file-mode"),
            QStringLiteral("the key file %1 must belong to you and be readable by you alone "
                           "(it has mode %2); run: chmod 600 %1")
                .arg(m_path)
                .arg(status.st_mode & 0777, 4, 8, QLatin1Char('0')));
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return fileError(QStringLiteral("cannot read the key file"), m_path);
    Result<KeyRing> ring = KeyRing::parse(file.readAll());
    if (!ring)
        return makeError(ring.error().code,
                         QStringLiteral("%1 (%2)").arg(ring.error().message, m_path));
    return std::optional<KeyRing>(std::move(ring).value());
}

Result<void> KeyFile::write(const KeyRing &ring)
{
    const QString temporary = m_path + QStringLiteral(".tmp-%1").arg(::getpid());
    const QByteArray temporaryPath = QFile::encodeName(temporary);
    ::unlink(temporaryPath.constData());
    FileDescriptor descriptor(
        ::open(temporaryPath.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (descriptor.get() < 0)
        return fileError(QStringLiteral("cannot create"), temporary);
    if (!writeAll(descriptor.get(), ring.serialize()) || ::fsync(descriptor.get()) != 0 ||
        ::close(descriptor.release()) != 0) {
        const Error error = fileError(QStringLiteral("cannot write"), temporary);
        ::unlink(temporaryPath.constData());
        return error;
    }
    if (::rename(temporaryPath.constData(), QFile::encodeName(m_path).constData()) != 0) {
        const Error error =
            fileError(QStringLiteral("cannot move the new key file into place at"), m_path);
        ::unlink(temporaryPath.constData());
        return error;
    }
    // The rename is durable once the directory is.
    const FileDescriptor directory(
        ::open(QFile::encodeName(QFileInfo(m_path).absolutePath()).constData(),
               O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() >= 0)
        ::fsync(directory.get());
    return {};
}

Result<std::unique_ptr<MasterKeyStore::Lock>> KeyFile::lock()
{
    struct FileLock final : Lock
    {
        explicit FileLock(const QString &path)
            : file(path)
        {}
        QLockFile file;
    };
    auto held = std::make_unique<FileLock>(m_path + QStringLiteral(".lock"));
    if (!held->file.tryLock(lockTimeoutMs))
        return makeError(QStringLiteral("secrets.key-file"),
                         QStringLiteral("another process holds %1.lock").arg(m_path));
    return std::unique_ptr<Lock>(std::move(held));
}

} // namespace arizuko::secrets
