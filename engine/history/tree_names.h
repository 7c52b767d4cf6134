#pragma once

// How a home's names are written in the history's git trees. git refuses
// some names as tree entries (".git" in any case, its NTFS and HFS aliases
// such as "git~1"); a home that is a git work tree has them. Such a name is
// stored with escapeMark before it, and so is every name that starts with
// escapeMark already, so the mapping is one to one: a stored name that
// starts with the mark is always an escaped one, and losing the mark once
// gives the home's name back. Only the history's trees see stored names:
// the changes, their diffs and the undo speak the home's names.

#include <QByteArray>
#include <QString>

namespace arizuko::history {

inline constexpr char escapeMark = '%';

// The stored name of `name` when git takes it as it is: `name` itself, or
// escaped when it starts with the mark.
QByteArray storedName(const QByteArray &name);
// The stored name of a name git refused.
QByteArray escapedName(const QByteArray &name);
// The home's path of a stored path ("a/%.git/config" -> "a/.git/config").
QByteArray homePath(const QByteArray &storedPath);
// homePath as text, for the user.
QString shownPath(const QByteArray &storedPath);
// A unified diff of `storedPath` with its header naming the home's path.
QString diffWithHomePath(const QString &diff, const QByteArray &storedPath);

} // namespace arizuko::history
