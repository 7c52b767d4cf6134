#pragma once

// Base64 (RFC 4648) for credentials: the bindings' values, HTTP Basic's user:password, and the
// forms of a value scrubbed from responses. The proxy links nothing that already has it.

#include "expected.hpp"

#include <string>
#include <string_view>

namespace arizuko::egress {

// Standard alphabet with padding.
std::string encodeBase64(std::string_view bytes);
// Standard alphabet; padding required to a multiple of 4, no blanks or other characters.
Expected<std::string> decodeBase64(std::string_view text);

} // namespace arizuko::egress
