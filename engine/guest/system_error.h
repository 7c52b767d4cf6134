#pragma once

// Failures of the guest's system calls. Every descriptor lives in a
// posix::UniqueFd (posix/unique_fd.h).

#include <stdexcept>
#include <string>

namespace arizuko::guest {

class GuestError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Throws GuestError with "<what>: <strerror(errno)>".
[[noreturn]] void throwErrno(const std::string &what);

} // namespace arizuko::guest
