#pragma once

// A directory below the data directory, opened one name at a time: no name
// may be a symbolic link or another user's directory, so a path a guest
// could have changed is never followed out of the data directory (folder
// homes, docs/security-model.md). The data directory itself is the user's
// choice and may be reached through a link.

#include "core/result.h"
#include "posix/unique_fd.h"

#include <QString>

namespace arizuko::store {

// Which directory it is, whatever its path: one renamed away and replaced
// under the same name is another identity.
struct DirectoryIdentity
{
    quint64 device = 0;
    quint64 inode = 0;
    bool operator==(const DirectoryIdentity &) const = default;
};

struct OpenedDirectory
{
    posix::UniqueFd fd;
    DirectoryIdentity identity;
};

// Opens <dataDir>/<relative> ('/'-separated names, none empty, `.` or `..`)
// with O_NOFOLLOW on every name; with `create`, a missing name is made
// (0700). Refused with store.unsafe-path when a name is a link, not a
// directory, or not owned by this process's user; store.path-missing when
// a name does not exist and `create` is false.
Result<OpenedDirectory> openBelowDataDir(const QString &dataDir, const QString &relative,
                                         bool create);

} // namespace arizuko::store
