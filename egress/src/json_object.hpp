#pragma once

// One line of JSON read as an object, for what the engine writes to the proxy (the answers of
// --ask, the bindings of --secrets-fd). nlohmann keeps the last of two equal keys; a line that
// says two things is refused instead.

#include "expected.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

namespace arizuko::egress {

// The object, or "not JSON", "not a JSON object", "a member given twice".
Expected<nlohmann::json> parseJsonObject(std::string_view line);

} // namespace arizuko::egress
