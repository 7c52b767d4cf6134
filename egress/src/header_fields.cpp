#include "header_fields.hpp"

#include "httpfield/field_line.h"

#include <algorithm>
#include <cctype>

namespace arizuko::egress {

std::optional<size_t> findHeadEnd(std::string_view buffered)
{
    const size_t blank = buffered.find("\r\n\r\n");
    if (blank == std::string_view::npos)
        return std::nullopt;
    return blank + 4;
}

int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

Expected<SplitHead> splitHead(std::string_view head)
{
    if (!head.ends_with("\r\n\r\n"))
        return Failure{"head does not end in an empty line"};
    if (const auto fault = httpfield::checkHeadBreaks(head);
        fault != httpfield::HeadBreakError::None)
        return Failure{std::string(httpfield::describe(fault)) + " in head"};
    head.remove_suffix(2);
    SplitHead split;
    size_t lineStart = 0;
    bool first = true;
    while (lineStart < head.size()) {
        const size_t lineEnd = head.find("\r\n", lineStart); // found: head ends in CRLF
        const std::string_view line = head.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 2;
        if (first) {
            split.startLine = line;
            first = false;
            continue;
        }
        if (line.empty())
            return Failure{"empty line inside head"};
        const httpfield::FieldLine field = httpfield::parseFieldLine(line);
        switch (field.error) {
        case httpfield::FieldLineError::None:
            break;
        case httpfield::FieldLineError::Folded:
            return Failure{"folded header line (obs-fold) is not accepted"};
        case httpfield::FieldLineError::NoColon:
            return Failure{"header line without a colon"};
        case httpfield::FieldLineError::BadName:
            return Failure{"invalid header name"};
        case httpfield::FieldLineError::ControlCharacter:
            return Failure{"control character in header value"};
        }
        split.fields.push_back({std::string(field.name), std::string(field.value)});
    }
    if (first || split.startLine.empty())
        return Failure{"empty start line"};
    return split;
}

std::vector<std::string_view> fieldValues(const HeaderFields &fields, std::string_view name)
{
    std::vector<std::string_view> values;
    for (const HeaderField &field : fields) {
        if (equalsIgnoringCase(field.name, name))
            values.push_back(field.value);
    }
    return values;
}

std::vector<std::string_view> splitList(std::string_view value)
{
    std::vector<std::string_view> elements;
    while (!value.empty()) {
        const size_t comma = value.find(',');
        const std::string_view element = httpfield::trimBlanks(value.substr(0, comma));
        if (!element.empty())
            elements.push_back(element);
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
    return elements;
}

bool fieldListsToken(const HeaderFields &fields, std::string_view name, std::string_view token)
{
    for (const std::string_view value : fieldValues(fields, name)) {
        for (const std::string_view element : splitList(value)) {
            if (equalsIgnoringCase(element, token))
                return true;
        }
    }
    return false;
}

} // namespace arizuko::egress
