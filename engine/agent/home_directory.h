#pragma once

// A folder's home, read and written by the engine on the agent's behalf.
// The agent controls everything in it, so no path here ever follows a
// symbolic link, leaves the home, or opens a file with a second hard link.

#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace arizuko::agent {

class HomeDirectory
{
public:
    // Opens the home itself; the path up to it is the engine's own.
    static Result<HomeDirectory> open(const QString &path);

    const QString &path() const { return m_path; }

    // The file's bytes, or nullopt when it does not exist. A link, a
    // directory, a FIFO or a file larger than `maxBytes` is an error.
    Result<std::optional<QByteArray>> read(const QString &relative, qint64 maxBytes) const;
    // The names in a directory of the home (sorted, without . and ..), or
    // nullopt when it does not exist. A link on the way is an error.
    Result<std::optional<QStringList>> entries(const QString &relative) const;
    // Creates the file (and missing parent folders, 0700) with `data`; it
    // must not exist yet.
    Result<void> create(const QString &relative, const QByteArray &data) const;

private:
    struct Descriptor;
    HomeDirectory(QString path, std::shared_ptr<Descriptor> directory);

    QString m_path;
    std::shared_ptr<Descriptor> m_directory;
};

} // namespace arizuko::agent
