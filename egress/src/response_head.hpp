#pragma once

// An upstream's response head: status line and header fields.

#include "expected.hpp"
#include "header_fields.hpp"

#include <string>
#include <string_view>

namespace arizuko::egress {

struct ResponseHead
{
    int minorVersion = 1;
    int status = 0;
    std::string reasonPhrase;
    HeaderFields fields;
};

// Parses a complete head (ending in CRLF CRLF). Every error is a 502 for the client.
Expected<ResponseHead> parseResponseHead(std::string_view head);

} // namespace arizuko::egress
