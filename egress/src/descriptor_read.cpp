#include "descriptor_read.hpp"

#include <cerrno>
#include <cstring>
#include <string.h>
#include <unistd.h>

namespace arizuko::egress {

Expected<std::string> readDescriptor(int fd, size_t limit, const std::string &flag)
{
    std::string text;
    char chunk[4096];
    text.reserve(limit + sizeof(chunk));
    while (true) {
        const ssize_t got = ::read(fd, chunk, sizeof(chunk));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            return Failure{flag + ": cannot be read: " + std::strerror(error)};
        }
        if (got == 0)
            break;
        text.append(chunk, static_cast<size_t>(got));
        if (text.size() > limit)
            break;
    }
    ::close(fd);
    explicit_bzero(chunk, sizeof(chunk));
    return text;
}

} // namespace arizuko::egress
