// JSON string literals for untrusted text: every output is valid JSON and
// valid UTF-8; valid UTF-8 comes through unchanged, invalid bytes become
// U+FFFD (never \u00XX per byte, which would decode as Latin-1 letters).

#include "jsontext/json_string.h"

#include <gtest/gtest.h>
#include <string>

namespace arizuko::jsontext {
namespace {

TEST(JsonString, EscapesWhatJsonRequires)
{
    EXPECT_EQ(quote("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(quote("\n\r\t\b\f"), R"("\n\r\t\b\f")");
    EXPECT_EQ(quote(std::string("\x01\x1f\x00", 3)), R"("\u0001\u001f\u0000")");
    EXPECT_EQ(quote("/ \x7f"), "\"/ \x7f\"");
}

TEST(JsonString, KeepsMultiByteTextAsItIs)
{
    // Two, three and four bytes: a German host, a Japanese reason, an emoji.
    const std::string host = "b\xC3\xBC"
                             "cher.example";
    const std::string reason = "\xE6\x8B\x92\xE5\x90\xA6\xE3\x81\x95\xE3\x82\x8C\xE3\x81\x9F";
    const std::string emoji = "\xF0\x9F\x9A\xAB";
    EXPECT_EQ(quote(host), "\"" + host + "\"");
    EXPECT_EQ(quote(reason), "\"" + reason + "\"");
    EXPECT_EQ(quote(emoji + " denied"), "\"" + emoji + " denied\"");
    // The edges of UTF-8: U+0080, U+07FF, U+0800, U+FFFF, U+10000, U+10FFFF.
    const std::string edges = "\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF"
                              "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF";
    EXPECT_EQ(quote(edges), "\"" + edges + "\"");
}

TEST(JsonString, ReplacesEachInvalidByteWithTheReplacementCharacter)
{
    const std::string replacement = "\xEF\xBF\xBD";
    EXPECT_EQ(quote("\xFF"), "\"" + replacement + "\"");
    // A lone continuation byte, a truncated sequence, an overlong '/', an
    // encoded surrogate and a value above U+10FFFF.
    EXPECT_EQ(quote("a\x80z"), "\"a" + replacement + "z\"");
    EXPECT_EQ(quote("\xE6\x8B"), "\"" + replacement + replacement + "\"");
    EXPECT_EQ(quote("\xC0\xAF"), "\"" + replacement + replacement + "\"");
    EXPECT_EQ(quote("\xED\xA0\x80"), "\"" + replacement + replacement + replacement + "\"");
    EXPECT_EQ(quote("\xF4\x90\x80\x80"),
              "\"" + replacement + replacement + replacement + replacement + "\"");
    // What follows a bad byte is read afresh.
    EXPECT_EQ(quote("\xC3\xC3\xA9"), "\"" + replacement + "\xC3\xA9\"");
    EXPECT_EQ(quote("\xFF").find("\\u00"), std::string::npos);
}

TEST(JsonString, AppendsAfterWhatIsThere)
{
    std::string out = "{\"k\":";
    appendString(out, "v\xC3\xA9");
    EXPECT_EQ(out, "{\"k\":\"v\xC3\xA9\"");
}

} // namespace
} // namespace arizuko::jsontext
