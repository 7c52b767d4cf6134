#include "response_head.hpp"

#include <cctype>

namespace arizuko::egress {

Expected<ResponseHead> parseResponseHead(std::string_view headText)
{
    auto split = splitHead(headText);
    if (!split)
        return Failure{split.error()};
    std::string_view line = split->startLine;
    ResponseHead head;
    if (line.starts_with("HTTP/1.1 "))
        head.minorVersion = 1;
    else if (line.starts_with("HTTP/1.0 "))
        head.minorVersion = 0;
    else
        return Failure{"status line is not HTTP/1.x"};
    line.remove_prefix(9);
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    if (line.size() < 3 || !digit(line[0]) || !digit(line[1]) || !digit(line[2]) ||
        (line.size() > 3 && line[3] != ' '))
        return Failure{"invalid status code"};
    head.status = (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
    if (head.status < 100)
        return Failure{"invalid status code"};
    head.reasonPhrase = std::string(line.size() > 4 ? line.substr(4) : std::string_view{});
    head.fields = std::move(split->fields);
    return head;
}

} // namespace arizuko::egress
