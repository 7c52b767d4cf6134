#include "system_error.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace arizuko::guest {

void throwErrno(const std::string &what)
{
    throw GuestError(what + ": " + std::strerror(errno));
}

void UniqueFd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

} // namespace arizuko::guest
