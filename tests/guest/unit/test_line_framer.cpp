// Framing of agent output into protocol lines: partial reads, long lines,
// UTF-8 boundaries, and what the host finally receives.

#include "json.h"
#include "line_framer.h"
#include "protocol_writer.h"

#include <gtest/gtest.h>

using namespace arizuko::guest;

namespace {

std::vector<std::pair<std::string, bool>> flatten(const std::vector<LinePiece> &pieces)
{
    std::vector<std::pair<std::string, bool>> out;
    for (const LinePiece &piece : pieces)
        out.emplace_back(piece.text, piece.continued);
    return out;
}

using Pieces = std::vector<std::pair<std::string, bool>>;

} // namespace

TEST(LineFramer, SplitsOnNewlinesAcrossReads)
{
    LineFramer framer(64);
    EXPECT_EQ(flatten(framer.feed("one\ntw")), (Pieces{{"one", false}}));
    EXPECT_EQ(flatten(framer.feed("o")), Pieces{});
    EXPECT_EQ(flatten(framer.feed("\n\nthree\nfour")),
              (Pieces{{"two", false}, {"", false}, {"three", false}}));
    EXPECT_EQ(flatten(framer.finish()), (Pieces{{"four", false}}));
    EXPECT_EQ(flatten(framer.finish()), Pieces{});
}

TEST(LineFramer, NothingPendingMeansNothingAtFinish)
{
    LineFramer framer(64);
    EXPECT_EQ(flatten(framer.feed("done\n")), (Pieces{{"done", false}}));
    EXPECT_EQ(flatten(framer.finish()), Pieces{});
}

TEST(LineFramer, KeepsCarriageReturnsAndNulBytes)
{
    LineFramer framer(64);
    const std::string data("a\r\nb\0c\n", 7);
    EXPECT_EQ(flatten(framer.feed(data)),
              (Pieces{{"a\r", false}, {std::string("b\0c", 3), false}}));
}

TEST(LineFramer, CutsLongLinesIntoContinuedPieces)
{
    LineFramer framer(4);
    EXPECT_EQ(flatten(framer.feed("abcdefghij")), (Pieces{{"abcd", true}, {"efgh", true}}));
    EXPECT_EQ(flatten(framer.feed("\nxy\n")), (Pieces{{"ij", false}, {"xy", false}}));
}

TEST(LineFramer, ALineOfExactlyTheLimitIsOnePiece)
{
    LineFramer framer(4);
    EXPECT_EQ(flatten(framer.feed("abcd")), Pieces{});
    EXPECT_EQ(flatten(framer.feed("\n")), (Pieces{{"abcd", false}}));
}

TEST(LineFramer, NeverCutsInsideAUtf8Sequence)
{
    // "a" then a 4-byte emoji: a cut at 4 would split the emoji.
    LineFramer framer(4);
    const std::string emoji = "\xF0\x9F\x98\x80";
    EXPECT_EQ(flatten(framer.feed("a" + emoji + "b\n")),
              (Pieces{{"a", true}, {emoji, true}, {"b", false}}));
}

TEST(LineFramer, CutsGarbageWhereverItMust)
{
    LineFramer framer(4);
    EXPECT_EQ(flatten(framer.feed("\x80\x80\x80\x80\x80\x80\n")),
              (Pieces{{"\x80\x80\x80\x80", true}, {"\x80\x80", false}}));
}

TEST(LineFramer, ReassemblesToTheOriginalLine)
{
    LineFramer framer(7);
    std::string line;
    for (int i = 0; i < 50; ++i)
        line += "\xC3\xA9x\xE2\x82\xAC";
    std::string joined;
    for (const LinePiece &piece : framer.feed(line + "\n")) {
        EXPECT_LE(piece.text.size(), 7u);
        joined += piece.text;
    }
    EXPECT_EQ(joined, line);
}

TEST(LineFramer, RefusesALimitTooSmallForUtf8)
{
    EXPECT_THROW(LineFramer(3), std::invalid_argument);
}

TEST(ProtocolWriter, SequenceStrictlyIncreasesAcrossMessageTypes)
{
    ProtocolWriter writer;
    const std::vector<std::string> lines = {
        writer.status({"booted", 1200, "6.1.0-57-amd64", "abc"}),
        writer.event({"{\"type\":\"system\"}", false}),
        writer.log("agent", {"warning", false}),
        writer.event({"partial", true}),
        writer.exit({ExitReport::Reason::Exited, 3, 0, {}, 10}),
    };
    std::int64_t expected = 1;
    for (const std::string &line : lines) {
        ASSERT_EQ(line.back(), '\n');
        ASSERT_EQ(line.find('\n'), line.size() - 1) << "one message per line";
        const json::Value message = json::parse(line);
        EXPECT_EQ(message.find("seq")->asNumber()->integer, expected++);
    }
    EXPECT_EQ(writer.lastSeq(), 5u);
}

TEST(ProtocolWriter, EventCarriesTheRawLineAsAString)
{
    ProtocolWriter writer;
    const std::string agentLine = R"({"type":"assistant","text":"hi\n"})";
    const json::Value message = json::parse(writer.event({agentLine, false}));
    EXPECT_EQ(*message.find("type")->asString(), "event");
    EXPECT_EQ(*message.find("line")->asString(), agentLine);
    EXPECT_EQ(message.find("continued"), nullptr);
}

TEST(ProtocolWriter, InvalidUtf8OutputStillMakesValidJson)
{
    ProtocolWriter writer;
    const std::string text = writer.log("agent", {"bad \xFF\xFE bytes \xC3", true});
    const json::Value message = json::parse(text);
    EXPECT_EQ(*message.find("line")->asString(), "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes \xEF\xBF\xBD");
    EXPECT_TRUE(*message.find("continued")->asBool());
    EXPECT_EQ(*message.find("source")->asString(), "agent");
}

TEST(ProtocolWriter, ExitReportsEachReasonWithAShellLikeCode)
{
    struct Case
    {
        ExitReport report;
        std::string reason;
        std::int64_t code;
    };
    const std::vector<Case> cases = {
        {{ExitReport::Reason::Exited, 7, 0, {}, 1}, "exited", 7},
        {{ExitReport::Reason::Signaled, 0, 9, {}, 1}, "signal", 137},
        {{ExitReport::Reason::Timeout, 0, 0, "deadline", 1}, "timeout", 124},
        {{ExitReport::Reason::Cancelled, 0, 0, "cancelled", 1}, "cancelled", 130},
        {{ExitReport::Reason::Error, 0, 0, "no home", 1}, "error", 125},
    };
    for (const Case &c : cases) {
        ProtocolWriter writer;
        const json::Value message = json::parse(writer.exit(c.report));
        EXPECT_EQ(*message.find("type")->asString(), "exit");
        EXPECT_EQ(*message.find("reason")->asString(), c.reason);
        EXPECT_EQ(message.find("code")->asNumber()->integer, c.code);
        EXPECT_EQ(message.find("duration_ms")->asNumber()->integer, 1);
        if (c.report.reason == ExitReport::Reason::Signaled) {
            EXPECT_EQ(message.find("signal")->asNumber()->integer, 9);
        }
        if (!c.report.message.empty()) {
            EXPECT_EQ(*message.find("message")->asString(), c.report.message);
        }
    }
}

TEST(ProtocolWriter, StatusNamesKernelAndImageOnlyWhenKnown)
{
    ProtocolWriter writer;
    const json::Value booted = json::parse(writer.status({"booted", 3100, "6.1.0", "hash"}));
    EXPECT_EQ(*booted.find("kernel")->asString(), "6.1.0");
    EXPECT_EQ(*booted.find("image")->asString(), "hash");
    EXPECT_EQ(booted.find("uptime_ms")->asNumber()->integer, 3100);
    const json::Value running = json::parse(writer.status({"running", 3200, {}, {}}));
    EXPECT_EQ(*running.find("state")->asString(), "running");
    EXPECT_EQ(running.find("kernel"), nullptr);
}
