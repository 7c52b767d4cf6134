// Decision-log lines: the documented fields in order, valid JSON for any client-supplied text.

#include "decision_log.hpp"
#include "json_line.hpp"

#include <cstdio>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace arizuko::egress {
namespace {

using namespace std::chrono_literals;

const auto kTime = std::chrono::system_clock::time_point{} + 1'796'000'000s + 678ms;

TEST(DecisionLog, DecisionLine)
{
    ExchangeRecord record;
    record.method = "CONNECT";
    record.host = "api.github.com";
    record.port = 443;
    record.status = 200;
    EXPECT_EQ(formatDecisionLine("10.213.0.2", record, kTime),
              "{\"time\":\"2026-11-30T00:53:20.678Z\",\"event\":\"decision\",\"client\":"
              "\"10.213.0.2\",\"method\":\"CONNECT\",\"host\":\"api.github.com\",\"port\":443,"
              "\"decision\":\"allow\",\"reason\":\"allowed\",\"status\":200}\n");
}

TEST(DecisionLog, CloseLine)
{
    ExchangeRecord record;
    record.method = "GET";
    record.host = "evil.com";
    record.port = 80;
    record.reason = Reason::HostDenied;
    record.status = 403;
    record.bytesUp = 1234;
    record.bytesDown = 56789;
    EXPECT_EQ(formatCloseLine("::1", record, kTime, 812ms),
              "{\"time\":\"2026-11-30T00:53:20.678Z\",\"event\":\"close\",\"client\":\"::1\","
              "\"method\":\"GET\",\"host\":\"evil.com\",\"port\":80,\"decision\":\"deny\","
              "\"reason\":\"host-denied\",\"bytes_up\":1234,\"bytes_down\":56789,"
              "\"duration_ms\":812}\n");
}

TEST(DecisionLog, PathAndTheUsersAnswer)
{
    ExchangeRecord record;
    record.method = "GET";
    record.host = "example.com";
    record.port = 80;
    record.path = "/a b";
    record.asked = true;
    record.answer = Answer::Once;
    record.status = 200;
    EXPECT_EQ(formatDecisionLine("10.213.0.2", record, kTime),
              "{\"time\":\"2026-11-30T00:53:20.678Z\",\"event\":\"decision\",\"client\":"
              "\"10.213.0.2\",\"method\":\"GET\",\"host\":\"example.com\",\"port\":80,"
              "\"path\":\"/a b\",\"decision\":\"allow\",\"reason\":\"allowed\",\"asked\":true,"
              "\"answer\":\"once\",\"status\":200}\n");
    record.answer = Answer::Deny;
    record.reason = Reason::NoAnswer;
    record.status = 403;
    EXPECT_NE(formatCloseLine("10.213.0.2", record, kTime, 5ms)
                  .find("\"decision\":\"deny\",\"reason\":\"no-answer\",\"asked\":true,"
                        "\"answer\":\"deny\",\"bytes_up\""),
              std::string::npos);
}

TEST(DecisionLog, AskLine)
{
    ExchangeRecord record;
    record.method = "CONNECT";
    record.host = "example.com";
    record.port = 443;
    EXPECT_EQ(formatAskLine(7, "10.213.0.2", record, kTime),
              "{\"time\":\"2026-11-30T00:53:20.678Z\",\"event\":\"ask\",\"id\":7,\"client\":"
              "\"10.213.0.2\",\"method\":\"CONNECT\",\"host\":\"example.com\",\"port\":443}\n");
    record.method = "GET";
    record.port = 80;
    record.path = "/x";
    EXPECT_TRUE(formatAskLine(8, "c", record, kTime).ends_with(",\"port\":80,\"path\":\"/x\"}\n"));
}

TEST(DecisionLog, EscapesUntrustedText)
{
    const std::string line = JsonLine(kTime, "x").add("method", "a\"b\\c\n\x01\xff").finish();
    // An invalid byte becomes U+FFFD, never \u00ff (which would decode as 'ÿ').
    EXPECT_NE(line.find("\"method\":\"a\\\"b\\\\c\\n\\u0001\xEF\xBF\xBD\""), std::string::npos)
        << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

TEST(DecisionLog, KeepsMultiByteHostsAndReasonsReadable)
{
    // An internationalised host as a client may send it, and a reason with
    // a non-Latin script: UTF-8 stays UTF-8.
    const std::string line = JsonLine(kTime, "x")
                                 .add("host", "b\xC3\xBC"
                                              "cher.example")
                                 .add("reason", "\xE6\x8B\x92\xE5\x90\xA6 \xF0\x9F\x9A\xAB")
                                 .finish();
    EXPECT_NE(line.find("\"host\":\"b\xC3\xBC"
                        "cher.example\""),
              std::string::npos)
        << line;
    EXPECT_NE(line.find("\"reason\":\"\xE6\x8B\x92\xE5\x90\xA6 \xF0\x9F\x9A\xAB\""),
              std::string::npos)
        << line;
    EXPECT_EQ(line.find("\\u00"), std::string::npos) << line;
}

// The log's pipe is raised to 1 MiB so a reader busy in a store transaction does not stop the
// proxy's event loop at 64 KiB; the lines still arrive whole.
TEST(DecisionLog, RaisesItsPipe)
{
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    ASSERT_LT(::fcntl(ends[1], F_GETPIPE_SZ), DecisionLog::pipeBytes);
    const DecisionLog log(ends[1]);
    EXPECT_EQ(::fcntl(ends[1], F_GETPIPE_SZ), DecisionLog::pipeBytes);
    // More than the default pipe holds, written with no reader yet; non-blocking so that a
    // pipe left at 64 KiB drops lines (write gives up on EAGAIN) rather than hangs the test.
    ASSERT_EQ(::fcntl(ends[1], F_SETFL, O_NONBLOCK), 0);
    const std::string line = std::string(999, 'x') + '\n';
    for (int i = 0; i < 200; ++i)
        log.write(line);
    ::close(ends[1]);
    std::string read(200 * line.size() + 1, '\0');
    size_t got = 0;
    for (ssize_t n; (n = ::read(ends[0], read.data() + got, read.size() - got)) > 0;)
        got += size_t(n);
    ::close(ends[0]);
    EXPECT_EQ(got, 200 * line.size());
}

// A log that is not a pipe (a file) is written as before.
TEST(DecisionLog, LeavesAFileAlone)
{
    std::FILE *file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    const DecisionLog log(::fileno(file));
    log.write("line\n");
    EXPECT_EQ(::lseek(::fileno(file), 0, SEEK_CUR), 5);
    std::fclose(file);
}

} // namespace
} // namespace arizuko::egress
