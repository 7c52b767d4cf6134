// The guest's JSON reader (nlohmann's parser under it) and the writer it
// shares with the proxy: strict on input, always valid on output.

#include "json.h"
#include "jsontext/json_string.h"
#include "jsontext/object_writer.h"

#include <gtest/gtest.h>
#include <string>

using namespace arizuko;
using namespace arizuko::guest;

namespace {

std::string stringOf(const json::Value &value)
{
    const std::string *text = value.asString();
    return text ? *text : "<not a string>";
}

} // namespace

TEST(JsonParse, ReadsEveryKindOfValue)
{
    const json::Value value = json::parse(
        R"( {"s":"x","n":-12,"f":1.5e2,"t":true,"F":false,"z":null,"a":[1,"two",[]],"o":{}} )");
    ASSERT_TRUE(value.asObject());
    EXPECT_EQ(stringOf(*value.find("s")), "x");
    EXPECT_EQ(value.find("n")->asNumber()->integer, -12);
    EXPECT_DOUBLE_EQ(value.find("f")->asNumber()->value, 150.0);
    EXPECT_FALSE(value.find("f")->asNumber()->integer);
    EXPECT_TRUE(*value.find("t")->asBool());
    EXPECT_FALSE(*value.find("F")->asBool());
    EXPECT_TRUE(value.find("z")->isNull());
    ASSERT_EQ(value.find("a")->asArray()->size(), 3u);
    EXPECT_EQ(stringOf(value.find("a")->asArray()->at(1)), "two");
    EXPECT_TRUE(value.find("o")->asObject()->empty());
    EXPECT_EQ(value.find("missing"), nullptr);
}

TEST(JsonParse, DecodesEscapesAndSurrogatePairs)
{
    const json::Value value = json::parse(R"("q\" b\\ s\/ \b\f\n\r\t \u00e9 \u20AC \ud83d\ude00")");
    EXPECT_EQ(stringOf(value), "q\" b\\ s/ \b\f\n\r\t \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(JsonParse, KeepsRawUtf8)
{
    EXPECT_EQ(stringOf(json::parse("\"gr\xC3\xBC\xC3\x9F \xE6\x97\xA5\"")),
              "gr\xC3\xBC\xC3\x9F \xE6\x97\xA5");
}

TEST(JsonParse, LargeIntegersStayExactOrFallBackToDouble)
{
    EXPECT_EQ(json::parse("9223372036854775807").asNumber()->integer, INT64_MAX);
    const json::Value tooBig = json::parse("9223372036854775808");
    EXPECT_FALSE(tooBig.asNumber()->integer);
    EXPECT_DOUBLE_EQ(tooBig.asNumber()->value, 9223372036854775808.0);
}

class JsonRejects : public testing::TestWithParam<std::string>
{
};

TEST_P(JsonRejects, WithAParseError)
{
    EXPECT_THROW(json::parse(GetParam()), json::ParseError) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, JsonRejects,
    testing::Values("", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'x'", "\"open",
                    "tru", "nul", "01", "1.", ".5", "-", "1e", "+1", "0x10", "1e999", "\"\\x\"",
                    "\"\\u12\"", "\"\\u12G4\"", "\"tab\there\"", "\"nl\nhere\"", "\"\\ud800\"",
                    "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\xC3\"", "\"\xC0\xAF\"",
                    "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xFF\"", "{\"a\":1,\"a\":2}",
                    "1 2", "{} x", std::string(100, '[') + std::string(100, ']'), "\xEF\xBB\xBF{}",
                    "/* c */ {}", "{} // c"));

TEST(JsonParse, NestingUpToTheLimitIsFine)
{
    EXPECT_NO_THROW(json::parse(std::string(64, '[') + std::string(64, ']')));
    EXPECT_THROW(json::parse(std::string(65, '[') + std::string(65, ']')), json::ParseError);
    EXPECT_NO_THROW(json::parse(std::string(63, '[') + "{\"a\":1}" + std::string(63, ']')));
}

TEST(JsonParse, SaysWhatIsWrong)
{
    try {
        json::parse(R"({"type":"spec","type":"other"})");
        FAIL() << "a duplicate key was accepted";
    } catch (const json::ParseError &error) {
        EXPECT_STREQ(error.what(), "duplicate member \"type\"");
    }
    try {
        json::parse("{\"a\":tru}");
        FAIL() << "a bad literal was accepted";
    } catch (const json::ParseError &error) {
        EXPECT_NE(std::string(error.what()).find("syntax error"), std::string::npos)
            << error.what();
    }
}

TEST(JsonParse, KeepsMembersInOrderInNestedContainers)
{
    const json::Value value = json::parse(R"({"z":[1,{"b":2,"a":[3,4]},5],"y":{"x":{}}})");
    const json::Object &root = *value.asObject();
    ASSERT_EQ(root.size(), 2u);
    EXPECT_EQ(root[0].first, "z");
    EXPECT_EQ(root[1].first, "y");
    const json::Array &z = *root[0].second.asArray();
    ASSERT_EQ(z.size(), 3u);
    EXPECT_EQ(z[2].asNumber()->integer, 5);
    const json::Object &inner = *z[1].asObject();
    EXPECT_EQ(inner[0].first, "b");
    EXPECT_EQ(inner[1].second.asArray()->at(1).asNumber()->integer, 4);
    EXPECT_TRUE(root[1].second.find("x")->asObject()->empty());
}

TEST(JsonQuoted, EscapesWhatJsonRequires)
{
    EXPECT_EQ(jsontext::quote("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(jsontext::quote("\n\r\t\b\f"), R"("\n\r\t\b\f")");
    EXPECT_EQ(jsontext::quote(std::string("\x01\x1f\x00", 3)), R"("\u0001\u001f\u0000")");
    EXPECT_EQ(jsontext::quote("/ \x7f \xE2\x82\xAC"), "\"/ \x7f \xE2\x82\xAC\"");
}

TEST(JsonQuoted, ReplacesInvalidUtf8SoTheOutputParses)
{
    const std::string invalid = "ok \xFF \xC3 \xED\xA0\x80 \xF0\x9F\x98 end";
    const std::string quoted = jsontext::quote(invalid);
    const std::string decoded = stringOf(json::parse(quoted));
    EXPECT_EQ(decoded.rfind("ok \xEF\xBF\xBD ", 0), 0u) << decoded;
    EXPECT_NE(decoded.find(" end"), std::string::npos);
    EXPECT_EQ(decoded.find('\xFF'), std::string::npos);
}

TEST(JsonQuoted, RoundTripsEveryByteValue)
{
    std::string all;
    for (int byte = 0; byte < 0x80; ++byte)
        all.push_back(static_cast<char>(byte));
    all += "\xC3\xA9\xF0\x9F\x98\x80";
    EXPECT_EQ(stringOf(json::parse(jsontext::quote(all))), all);
}

TEST(JsonObjectWriter, WritesMembersInOrder)
{
    jsontext::ObjectWriter writer;
    writer.add("type", "event").add("seq", std::int64_t{42}).add("continued", true).add("k\"", "v");
    const std::string text = std::move(writer).finish();
    EXPECT_EQ(text, R"({"type":"event","seq":42,"continued":true,"k\"":"v"})");
    const json::Value parsed = json::parse(text);
    EXPECT_EQ(parsed.find("seq")->asNumber()->integer, 42);
}

TEST(JsonObjectWriter, EmptyObject)
{
    EXPECT_EQ(jsontext::ObjectWriter().finish(), "{}");
}
