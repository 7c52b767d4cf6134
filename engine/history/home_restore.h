#pragma once

// Writes into a hostile home for an undo: every directory on the way is
// opened with O_NOFOLLOW (a link there is refused, never followed), and a
// file is written beside its target and renamed over it, so a link planted
// at the target is replaced, not written through.

#include "core/result.h"

#include <QByteArray>

namespace arizuko::history {

enum class RestoredKind
{
    File,
    ExecutableFile,
    Link
};

// Puts `content` at `path` below the home open at `home`, creating missing
// directories (0700). A directory at `path` holding only empty directories
// (the undo removed its files) is removed first; any other is refused.
Result<void> restoreEntry(int home, const QByteArray &path, RestoredKind kind,
                          const QByteArray &content);
// Removes the file or link at `path`; one already gone is fine.
Result<void> removeEntry(int home, const QByteArray &path);

} // namespace arizuko::history
