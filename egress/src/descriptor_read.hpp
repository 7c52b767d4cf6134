#pragma once

// Reads an inherited descriptor the engine filled (the turn's CA, the bindings of secrets) to its
// end and closes it. What it read may be a key or a credential: the buffer is reserved once, so
// no copy is left behind in freed memory, and the caller wipes it after use.

#include "expected.hpp"

#include <string>

namespace arizuko::egress {

// Up to `limit` bytes (more is cut off, which the caller's parser refuses); `flag` names the
// descriptor in the error ("--secrets-fd 4").
Expected<std::string> readDescriptor(int fd, size_t limit, const std::string &flag);

} // namespace arizuko::egress
