#pragma once

// Header fields of an HTTP/1.x head, parsed strictly: a proxy that accepts what its upstream reads
// differently invites request smuggling, so anything unusual is refused rather than repaired.

#include "expected.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::egress {

struct HeaderField
{
    std::string name;
    std::string value;
};

using HeaderFields = std::vector<HeaderField>;

// Where a head ends in `buffered` (the byte after its blank line), if it is complete.
std::optional<size_t> findHeadEnd(std::string_view buffered);

// Splits `head` (a complete head ending in CRLF CRLF) into its start line and header fields, each
// field line read by the validator the model gateway shares (httpfield/field_line.h).
struct SplitHead
{
    std::string_view startLine;
    HeaderFields fields;
};
Expected<SplitHead> splitHead(std::string_view head);

bool equalsIgnoringCase(std::string_view a, std::string_view b);

// The value of a hexadecimal digit (either case), or -1 for any other character.
int hexDigitValue(char c);

// Values of every field named `name`, in order.
std::vector<std::string_view> fieldValues(const HeaderFields &fields, std::string_view name);
// Whether a comma-separated field named `name` lists `token` (case-insensitive).
bool fieldListsToken(const HeaderFields &fields, std::string_view name, std::string_view token);
// Each element of a comma-separated field value, trimmed, empty elements skipped.
std::vector<std::string_view> splitList(std::string_view value);

} // namespace arizuko::egress
