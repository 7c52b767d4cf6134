// Fuzzes the header field validator and the head's line-ending check the
// proxy and the model gateway share with arbitrary bytes. Traps unless
// every line it accepts has a token name and a value free of CR, LF, NUL
// and other controls without blanks around it, its verdict agrees with a
// plain reading of RFC 9110 written separately here, and an accepted field
// written back reads the same; and unless the head check accepts exactly
// the bytes whose CRs and LFs all pair up as CRLF (a last CR awaiting its
// LF) with no NUL, and names a fault the bytes hold.

#include "httpfield/field_line.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace arizuko::httpfield;

void require(bool condition)
{
    if (!condition)
        __builtin_trap();
}

// RFC 9110 5.6.2, spelled out as the grammar lists it.
bool referenceTchar(unsigned char c)
{
    static const std::string_view tchar = "!#$%&'*+-.^_`|~0123456789"
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    return c != 0 && tchar.find(static_cast<char>(c)) != std::string_view::npos;
}

// RFC 9110 5.5: field-vchar is VCHAR or obs-text; SP and HTAB between.
bool referenceValueByte(unsigned char c)
{
    return c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7E) || c >= 0x80;
}

bool referenceToken(std::string_view text)
{
    for (const char c : text) {
        if (!referenceTchar(static_cast<unsigned char>(c)))
            return false;
    }
    return !text.empty();
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// The head with its CRLF pairs (and a last CR, whose LF may follow) taken
// out: no CR, LF or NUL may be left.
bool referenceHeadBreaks(std::string_view head)
{
    std::string rest;
    for (size_t i = 0; i < head.size(); ++i) {
        if (head[i] == '\r' && (i + 1 == head.size() || head[i + 1] == '\n'))
            ++i;
        else
            rest.push_back(head[i]);
    }
    return rest.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos;
}

void checkHeadBreaksOf(std::string_view head)
{
    const HeadBreakError error = checkHeadBreaks(head);
    require((error == HeadBreakError::None) == referenceHeadBreaks(head));
    require((error == HeadBreakError::None) == describe(error).empty());
    const char named = error == HeadBreakError::Nul      ? '\0'
                       : error == HeadBreakError::BareLf ? '\n'
                                                         : '\r';
    if (error != HeadBreakError::None) {
        require(head.find(named) != std::string_view::npos);
        return;
    }
    // Split at its CRLFs, an accepted head's lines hold no CR, LF or NUL
    // (but a last CR awaiting its LF): nothing a server could end a line at.
    for (size_t start = 0; start <= head.size();) {
        size_t end = head.find("\r\n", start);
        if (end == std::string_view::npos)
            end = head.size();
        std::string_view line = head.substr(start, end - start);
        if (end == head.size() && line.ends_with('\r'))
            line.remove_suffix(1);
        require(line.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos);
        start = end + 2;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view line(reinterpret_cast<const char *>(data), size);
    checkHeadBreaksOf(line);
    const FieldLine field = parseFieldLine(line);

    const size_t colon = line.find(':');
    const std::string_view beforeColon = line.substr(0, colon);
    require(isToken(beforeColon) == referenceToken(beforeColon));
    bool valueOk = colon != std::string_view::npos && referenceToken(beforeColon);
    for (size_t i = colon + 1; valueOk && i < line.size(); ++i)
        valueOk = referenceValueByte(static_cast<unsigned char>(line[i]));
    require(static_cast<bool>(field) == valueOk);
    if (!field)
        return 0;

    // What a server behind us would read: nothing that ends a header early.
    require(line.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos);
    require(field.name == line.substr(0, colon));
    require(isToken(field.name) && isFieldValue(field.value));
    require(field.value.empty() || (!isBlank(field.value.front()) && !isBlank(field.value.back())));
    require(field.value.data() >= line.data() + colon + 1 &&
            field.value.data() + field.value.size() <= line.data() + line.size());

    // Written back the usual way, it reads the same.
    const std::string written = std::string(field.name) + ": " + std::string(field.value);
    const FieldLine again = parseFieldLine(written);
    require(again && again.name == field.name && again.value == field.value);
    return 0;
}
