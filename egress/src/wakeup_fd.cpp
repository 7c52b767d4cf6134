#include "wakeup_fd.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <sys/eventfd.h>

namespace arizuko::egress {

WakeupFd::WakeupFd()
    : fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    if (!fd_)
        throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

void WakeupFd::notify() const
{
    const uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(fd_.get(), &one, sizeof(one));
}

void WakeupFd::drain() const
{
    uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(fd_.get(), &count, sizeof(count));
}

} // namespace arizuko::egress
