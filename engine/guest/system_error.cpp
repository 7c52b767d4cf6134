#include "system_error.h"

#include <cerrno>
#include <cstring>

namespace arizuko::guest {

void throwErrno(const std::string &what)
{
    throw GuestError(what + ": " + std::strerror(errno));
}

} // namespace arizuko::guest
