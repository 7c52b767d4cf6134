#pragma once

// UTF-8 decoding shared by the guest's JSON reader (which rejects bad input)
// and the JSON string writer (which replaces it).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arizuko::utf8 {

// Decodes the well-formed sequence starting at `position` and advances past
// it; nullopt (position unchanged) for an invalid, overlong, surrogate or
// truncated sequence.
std::optional<char32_t> decode(std::string_view text, std::size_t &position);

void append(std::string &out, char32_t codePoint);

// The length of the longest prefix of `text` no longer than `limit` that
// does not end inside a multi-byte sequence.
std::size_t boundaryAtOrBefore(std::string_view text, std::size_t limit);

} // namespace arizuko::utf8
