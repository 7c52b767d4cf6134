#pragma once

// A folder's home, read and written by the engine on the agent's behalf.
// The agent controls everything in it, so no path here ever follows a
// symbolic link, leaves the home, or opens a file with a second hard link.

#include "core/result.h"
#include "folders/folders.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace arizuko::agent {

class HomeDirectory
{
public:
    // Opens the home (creating it when missing) through Folders::openHome:
    // every name from the data directory down is a real directory of the
    // engine's user, never a link.
    static Result<HomeDirectory> open(const QString &dataDir, const folders::Home &home);

    const QString &path() const { return m_path; }
    const store::DirectoryIdentity &identity() const { return m_identity; }

    // The file's bytes, or nullopt when it does not exist. A link, a
    // directory, a FIFO or a file larger than `maxBytes` is an error.
    Result<std::optional<QByteArray>> read(const QString &relative, qint64 maxBytes) const;
    // The names in a directory of the home (sorted, without . and ..), or
    // nullopt when it does not exist; an empty `relative` lists the home
    // itself. A link on the way is an error.
    Result<std::optional<QStringList>> entries(const QString &relative) const;
    // Creates the file (and missing parent folders, 0700) with `data`; it
    // must not exist yet.
    Result<void> create(const QString &relative, const QByteArray &data) const;

private:
    struct Descriptor;
    HomeDirectory(QString path, store::DirectoryIdentity identity,
                  std::shared_ptr<Descriptor> directory);

    QString m_path;
    store::DirectoryIdentity m_identity;
    std::shared_ptr<Descriptor> m_directory;
};

} // namespace arizuko::agent
