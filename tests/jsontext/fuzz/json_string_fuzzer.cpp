// Fuzzes the JSON string writer with arbitrary bytes. Traps unless the
// output is one valid JSON string literal in valid UTF-8, escapes only
// control characters as \u00XX, and decodes back to the input whenever the
// input was valid UTF-8.

#include "jsontext/json_string.h"
#include "jsontext/utf8.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace arizuko;

void require(bool condition)
{
    if (!condition)
        __builtin_trap();
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    require(c >= 'A' && c <= 'F');
    return c - 'A' + 10;
}

// The literal's text, decoded; traps on anything JSON or UTF-8 forbids.
std::string decodeLiteral(std::string_view literal)
{
    require(literal.size() >= 2 && literal.front() == '"' && literal.back() == '"');
    const std::string_view body = literal.substr(1, literal.size() - 2);
    std::string decoded;
    std::size_t position = 0;
    while (position < body.size()) {
        const auto byte = static_cast<unsigned char>(body[position]);
        require(byte >= 0x20 && byte != '"');
        if (byte != '\\') {
            const std::size_t start = position;
            require(utf8::decode(body, position).has_value());
            decoded.append(body.substr(start, position - start));
            continue;
        }
        require(position + 1 < body.size());
        const char escape = body[position + 1];
        position += 2;
        switch (escape) {
        case '"':
        case '\\':
            decoded.push_back(escape);
            break;
        case 'n':
            decoded.push_back('\n');
            break;
        case 'r':
            decoded.push_back('\r');
            break;
        case 't':
            decoded.push_back('\t');
            break;
        case 'b':
            decoded.push_back('\b');
            break;
        case 'f':
            decoded.push_back('\f');
            break;
        case 'u': {
            require(position + 4 <= body.size());
            int value = 0;
            for (int i = 0; i < 4; ++i)
                value = value * 16 + hexValue(body[position + i]);
            position += 4;
            // Only control characters are written as \u escapes.
            require(value < 0x20);
            decoded.push_back(static_cast<char>(value));
            break;
        }
        default:
            require(false);
        }
    }
    return decoded;
}

bool isValidUtf8(std::string_view text)
{
    std::size_t position = 0;
    while (position < text.size()) {
        if (!utf8::decode(text, position))
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const std::string literal = jsontext::quote(input);
    const std::string decoded = decodeLiteral(literal);
    require(isValidUtf8(decoded));
    if (isValidUtf8(input))
        require(decoded == input);
    std::string appended = "x";
    jsontext::appendString(appended, input);
    require(appended == "x" + literal);
    return 0;
}
