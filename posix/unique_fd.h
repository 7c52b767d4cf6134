#pragma once

// Owns one file descriptor and closes it exactly once. Header-only and
// plain C++ on Linux, so the proxy and the guest (no Qt, nothing of ours)
// share it with the engine and the benchmarks.

#include <unistd.h>
#include <utility>

namespace arizuko::posix {

class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd)
        : fd_(fd)
    {}
    UniqueFd(UniqueFd &&other) noexcept
        : fd_(std::exchange(other.fd_, -1))
    {}
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        reset(std::exchange(other.fd_, -1));
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    void reset(int fd = -1)
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

} // namespace arizuko::posix
