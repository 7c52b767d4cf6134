#pragma once

// What a refused import must leave as it was besides the database: the
// directories under the data directory, homes/ among them. An import that
// creates a folder's home before it is refused shows here, which a hash of
// the database alone would not show.

#include <QDir>
#include <QDirIterator>
#include <QStringList>

namespace arizuko::test {

// Every directory under dataDir, relative to it, sorted; links are never
// followed.
inline QStringList directoriesUnder(const QString &dataDir)
{
    const QDir root(dataDir);
    QStringList directories;
    QDirIterator it(dataDir, QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        directories << root.relativeFilePath(it.next());
    directories.sort();
    return directories;
}

} // namespace arizuko::test
