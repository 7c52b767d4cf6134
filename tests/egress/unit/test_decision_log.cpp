// Decision-log lines: the documented fields in order, valid JSON for any client-supplied text.

#include "decision_log.hpp"
#include "json_line.hpp"

#include <gtest/gtest.h>

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

TEST(DecisionLog, EscapesUntrustedText)
{
    const std::string line = JsonLine(kTime, "x").add("method", "a\"b\\c\n\x01\xff").finish();
    EXPECT_NE(line.find("\"method\":\"a\\\"b\\\\c\\u000a\\u0001\\u00ff\""), std::string::npos)
        << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

} // namespace
} // namespace arizuko::egress
