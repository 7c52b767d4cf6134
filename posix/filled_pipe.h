#pragma once

// A pipe filled before its reader exists: how the engine hands a turn's
// proxy what must touch neither disk, its command line nor its environment
// (the turn's CA key, the values of its bound secrets). The write end is
// closed here, so the reader reads to EOF.

#include "posix/unique_fd.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>

namespace arizuko::posix {

// The read end (close-on-exec; the child's side puts it on its number), or
// an invalid one and `error` saying why. Everything is written now, so the
// pipe is grown first when `bytes` would not fit its default size.
inline UniqueFd filledPipe(std::string_view bytes, std::string &error)
{
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) {
        error = std::string("no pipe: ") + std::strerror(errno);
        return {};
    }
    UniqueFd read(ends[0]);
    const UniqueFd write(ends[1]);
    const int capacity = ::fcntl(write.get(), F_GETPIPE_SZ);
    if (capacity >= 0 && bytes.size() > size_t(capacity) &&
        ::fcntl(write.get(), F_SETPIPE_SZ, int(bytes.size())) < 0) {
        error = "cannot grow the pipe to " + std::to_string(bytes.size()) +
                " bytes: " + std::strerror(errno);
        return {};
    }
    // Never blocks: the pipe holds it all. O_NONBLOCK makes sure of that.
    ::fcntl(write.get(), F_SETFL, O_NONBLOCK);
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t wrote = ::write(write.get(), bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0) {
            error = std::string("cannot fill the pipe: ") + std::strerror(errno);
            return {};
        }
        done += size_t(wrote);
    }
    return read;
}

} // namespace arizuko::posix
