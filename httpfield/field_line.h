#pragma once

// One header field line of an HTTP/1.x head ("Name: value"), read strictly
// for the proxy and the model gateway alike: whatever a server downstream
// might read differently (a folded line, a nameless field, a control
// character that could end a header early) is refused, never repaired.

#include <string_view>

namespace arizuko::httpfield {

// RFC 9110 tchar (ASCII only, whatever the C locale says).
bool isTokenChar(char c);
// A non-empty run of tchar: a method or a field name.
bool isToken(std::string_view text);
// `text` without the spaces and tabs around it (RFC 9110's OWS).
std::string_view trimBlanks(std::string_view text);
// RFC 9110 field-value characters: visible ASCII, obs-text, spaces and tabs;
// no CR, LF, NUL or other control.
bool isFieldValue(std::string_view value);

enum class FieldLineError
{
    None,
    Folded,           // starts with a space or tab (obs-fold)
    NoColon,          // no ':' at all
    BadName,          // the name before ':' is empty or not a token
    ControlCharacter, // the value holds a control character
};

struct FieldLine
{
    FieldLineError error = FieldLineError::None;
    std::string_view name;  // as sent, a token
    std::string_view value; // without the spaces and tabs around it
    explicit operator bool() const { return error == FieldLineError::None; }
};

// Reads one header line, without its CRLF. The views point into `line`.
FieldLine parseFieldLine(std::string_view line);

enum class HeadBreakError
{
    None,
    Nul,    // a NUL anywhere in the head
    BareLf, // an LF without the CR before it
    BareCr, // a CR followed by anything but LF
};

// Where a request head (what has arrived of it, CRLFs included) stops
// ending its lines in CRLF, each refused rather than guessed at: RFC 9112
// 2.2 lets a server accept a bare LF, and one behind us might read it
// differently. A CR as the last byte is not yet bare: its LF may follow.
HeadBreakError checkHeadBreaks(std::string_view head);
// "a NUL", "a bare LF", "a bare CR" for a message; empty for None.
std::string_view describe(HeadBreakError error);

} // namespace arizuko::httpfield
