#pragma once

// Failures of the guest's system calls, and the file-descriptor owner that
// every descriptor lives in.

#include <stdexcept>
#include <string>
#include <utility>

namespace arizuko::guest {

class GuestError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Throws GuestError with "<what>: <strerror(errno)>".
[[noreturn]] void throwErrno(const std::string &what);

class UniqueFd
{
public:
    explicit UniqueFd(int fd = -1)
        : m_fd(fd)
    {}
    UniqueFd(UniqueFd &&other) noexcept
        : m_fd(std::exchange(other.m_fd, -1))
    {}
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        reset(std::exchange(other.m_fd, -1));
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return m_fd; }
    explicit operator bool() const { return m_fd >= 0; }
    void reset(int fd = -1);

private:
    int m_fd;
};

} // namespace arizuko::guest
