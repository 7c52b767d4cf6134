#include "httpfield/field_line.h"

#include <algorithm>

namespace arizuko::httpfield {

std::string_view trimBlanks(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

bool isTokenChar(char c)
{
    static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           extra.find(c) != std::string_view::npos;
}

bool isToken(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

bool isFieldValue(std::string_view value)
{
    return std::all_of(value.begin(), value.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte == '\t' || (byte >= 0x20 && byte != 0x7F);
    });
}

FieldLine parseFieldLine(std::string_view line)
{
    if (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        return {FieldLineError::Folded, {}, {}};
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos)
        return {FieldLineError::NoColon, {}, {}};
    const std::string_view name = line.substr(0, colon);
    if (!isToken(name))
        return {FieldLineError::BadName, {}, {}};
    const std::string_view value = trimBlanks(line.substr(colon + 1));
    if (!isFieldValue(value))
        return {FieldLineError::ControlCharacter, name, {}};
    return {FieldLineError::None, name, value};
}

HeadBreakError checkHeadBreaks(std::string_view head)
{
    for (size_t index = 0; index < head.size(); ++index) {
        const char c = head[index];
        if (c == '\0')
            return HeadBreakError::Nul;
        if (c == '\n' && (index == 0 || head[index - 1] != '\r'))
            return HeadBreakError::BareLf;
        if (c == '\r' && index + 1 < head.size() && head[index + 1] != '\n')
            return HeadBreakError::BareCr;
    }
    return HeadBreakError::None;
}

std::string_view describe(HeadBreakError error)
{
    switch (error) {
    case HeadBreakError::None:
        break;
    case HeadBreakError::Nul:
        return "a NUL";
    case HeadBreakError::BareLf:
        return "a bare LF";
    case HeadBreakError::BareCr:
        return "a bare CR";
    }
    return {};
}

} // namespace arizuko::httpfield
