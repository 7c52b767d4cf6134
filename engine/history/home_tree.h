#pragma once

// Writes a folder home's files into a git tree. The home is the agent's and
// hostile (docs/security-model.md): the walk goes one directory descriptor
// at a time with O_NOFOLLOW, records a symbolic link as a link and never
// follows it, never opens a file with a second hard link (it may be a file
// outside the home), skips FIFOs, sockets, devices and whatever is mounted
// from another filesystem, and records a file over the size limit by its
// size and SHA-256 only.

#include "core/result.h"
#include "history/snapshot_index.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <git2/oid.h>
#include <git2/types.h>

namespace arizuko::history {

struct SnapshotOptions
{
    qint64 fileLimit = 50 * 1024 * 1024; // bytes; larger files are not stored
    // Every entry named .git (a work tree's, a submodule's): recorded
    // (under an escaped name, tree_names.h) or left out unlisted.
    bool includeGitDirectory = false;
};

// A name in the home the snapshot left out, and why ("fifo", "socket",
// "device", "hard link", "other filesystem", "too deep", "unreadable", "name").
struct SkippedEntry
{
    QByteArray path;
    QString why;
};

// A file over the limit: recorded as a placeholder blob naming these.
struct UnstoredFile
{
    QByteArray path;
    qint64 size = 0;
    QByteArray sha256; // hex
};

struct HomeTree
{
    git_oid tree{};
    QList<SkippedEntry> skipped;
    QList<UnstoredFile> unstored;
    int filesRead = 0;   // opened and hashed
    int filesReused = 0; // taken from the index unread
};

// `home` is an open directory descriptor of the home (folders::Folders::
// openHome). `index` is read and replaced with what this walk saw.
Result<HomeTree> writeHomeTree(git_repository *repository, int home, const SnapshotOptions &options,
                               SnapshotIndex &index);

// The placeholder's first line; a blob starting with it was never stored.
inline constexpr char unstoredMarker[] = "arizuko-history: not stored\n";

} // namespace arizuko::history
