// Header field lines as the proxy and the model gateway read them: a field
// is its token name and its value without the blanks around it; anything a
// server downstream could read differently is refused with its reason.

#include "httpfield/field_line.h"

#include <gtest/gtest.h>
#include <string>

namespace arizuko::httpfield {
namespace {

TEST(FieldLine, ReadsNameAndValueWithoutSurroundingBlanks)
{
    const FieldLine field = parseFieldLine("X-Api-Key: \t abc def \t");
    ASSERT_TRUE(field);
    EXPECT_EQ(field.name, "X-Api-Key");
    EXPECT_EQ(field.value, "abc def");
    const FieldLine empty = parseFieldLine("Accept:");
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty.value, "");
    // obs-text (a byte above 0x7F) is allowed in a value, and a colon too.
    const FieldLine text = parseFieldLine("Title: caf\xC3\xA9 at 10:30");
    ASSERT_TRUE(text);
    EXPECT_EQ(text.value, "caf\xC3\xA9 at 10:30");
}

TEST(FieldLine, RefusesWhatCouldBeReadDifferently)
{
    EXPECT_EQ(parseFieldLine(" folded").error, FieldLineError::Folded);
    EXPECT_EQ(parseFieldLine("\tfolded: x").error, FieldLineError::Folded);
    EXPECT_EQ(parseFieldLine("no colon").error, FieldLineError::NoColon);
    EXPECT_EQ(parseFieldLine(": nameless").error, FieldLineError::BadName);
    EXPECT_EQ(parseFieldLine("Bad Name: x").error, FieldLineError::BadName);
    EXPECT_EQ(parseFieldLine("Name : x").error, FieldLineError::BadName);
    EXPECT_EQ(parseFieldLine("Na\"me: x").error, FieldLineError::BadName);
    EXPECT_EQ(parseFieldLine("Na\xC3\xA9: x").error, FieldLineError::BadName);
    // A NUL in a name (which egress's old check let through) is no token.
    EXPECT_EQ(parseFieldLine(std::string("Na\0me: x", 8)).error, FieldLineError::BadName);
    for (const char control : {'\0', '\r', '\n', '\x01', '\x1F', '\x7F'}) {
        const FieldLine field = parseFieldLine(std::string("Name: a") + control + "b");
        EXPECT_EQ(field.error, FieldLineError::ControlCharacter) << int(control);
        EXPECT_EQ(field.name, "Name");
    }
}

TEST(FieldLine, TokensAreRfc9110Tchar)
{
    EXPECT_TRUE(isToken("POST"));
    EXPECT_TRUE(isToken("!#$%&'*+-.^_`|~09azAZ"));
    EXPECT_FALSE(isToken(""));
    for (const char c : std::string("\0 \"(),/:;<=>?@[\\]{}\x7F\x80\xFF", 22))
        EXPECT_FALSE(isTokenChar(c)) << int(static_cast<unsigned char>(c));
    EXPECT_TRUE(isFieldValue("a\tb c~\x80\xFF"));
    EXPECT_FALSE(isFieldValue("a\x0B"));
}

TEST(HeadBreaks, OnlyCrlfEndsALine)
{
    EXPECT_EQ(checkHeadBreaks("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), HeadBreakError::None);
    // A head still arriving may stop between its CR and LF.
    EXPECT_EQ(checkHeadBreaks("GET / HTTP/1.1\r"), HeadBreakError::None);
    EXPECT_EQ(checkHeadBreaks("GET / HTTP/1.1\nHost: a"), HeadBreakError::BareLf);
    EXPECT_EQ(checkHeadBreaks("\n"), HeadBreakError::BareLf);
    EXPECT_EQ(checkHeadBreaks("A: b\rHost: evil\r\n"), HeadBreakError::BareCr);
    EXPECT_EQ(checkHeadBreaks("A: b\r\r\n"), HeadBreakError::BareCr);
    EXPECT_EQ(checkHeadBreaks(std::string("A: b\0c\r\n", 8)), HeadBreakError::Nul);
    // The first fault is the one named.
    EXPECT_EQ(checkHeadBreaks(std::string("A\nb\0", 4)), HeadBreakError::BareLf);
    EXPECT_EQ(describe(HeadBreakError::BareCr), "a bare CR");
    EXPECT_EQ(describe(HeadBreakError::None), "");
}

} // namespace
} // namespace arizuko::httpfield
