#pragma once

// What a folder path and a topic name may be. Folder paths are principals,
// grant scopes (globs), route targets and directory names all at once, so
// anything that would read differently in one of those roles is refused.

#include "core/result.h"

#include <QString>
#include <QStringList>

namespace arizuko::folders {

// `corp`, `corp/eng`: segments joined by '/'. Refused: empty paths or
// segments, '.', '..', '\', NUL and other control characters, white space,
// glob characters (* ? [ ]), ':' (role principals), '#' (route targets),
// a segment over 128 characters, and the reserved segment `share`.
Result<void> validateFolderPath(const QString &path);

// A topic is one segment: the same rules, without '/' and without the
// reserved name.
Result<void> validateTopicName(const QString &name);

// The parent folder of `path`, empty for a top-level folder.
QString parentFolder(const QString &path);

// `path`, its parent, …, and the base folder '': where a folder's secret is
// looked for, nearest first.
QStringList folderAndAncestors(const QString &path);

} // namespace arizuko::folders
