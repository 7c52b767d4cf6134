#pragma once

// JSON string literals for text nobody vouches for: the proxy's decision
// lines (hosts and reasons a client sent) and the guest's protocol lines.
// Valid UTF-8 passes through as it is; each invalid byte becomes U+FFFD, so
// the output is valid JSON and valid UTF-8 for any input.

#include <string>
#include <string_view>

namespace arizuko::jsontext {

// Appends `text` as a JSON string literal, quotes included: `"` and `\`
// escaped, control characters as \n, \t … or \u00XX.
void appendString(std::string &out, std::string_view text);

// `text` as a JSON string literal, quotes included.
std::string quote(std::string_view text);

} // namespace arizuko::jsontext
