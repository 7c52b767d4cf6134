#include "jsontext/json_string.h"

#include "jsontext/utf8.h"

namespace arizuko::jsontext {
namespace {

// The short escape JSON has for `byte`, or null.
const char *shortEscape(unsigned char byte)
{
    switch (byte) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    case '\b':
        return "\\b";
    case '\f':
        return "\\f";
    default:
        return nullptr;
    }
}

} // namespace

void appendString(std::string &out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t position = 0;
    while (position < text.size()) {
        const auto byte = static_cast<unsigned char>(text[position]);
        if (const char *escape = shortEscape(byte)) {
            out += escape;
            ++position;
        } else if (byte < 0x20) {
            out += "\\u00";
            out.push_back(hex[byte >> 4]);
            out.push_back(hex[byte & 0xF]);
            ++position;
        } else if (const std::size_t start = position; utf8::decode(text, position)) {
            out.append(text.substr(start, position - start));
        } else {
            utf8::append(out, 0xFFFD);
            ++position;
        }
    }
    out.push_back('"');
}

std::string quote(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    appendString(out, text);
    return out;
}

} // namespace arizuko::jsontext
