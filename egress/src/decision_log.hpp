#pragma once

// The decision log: one JSON object per line on stderr, read by the engine's network view
// (docs/egress.md, "Decision log").

#include "answer_line.hpp"
#include "reason.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace arizuko::egress {

// One request's decision, kept until its exchange ends and its totals are logged.
struct ExchangeRecord
{
    std::string method;
    std::string host;
    uint16_t port = 0;
    // A plain-HTTP request's path without its query; empty for CONNECT.
    std::string path;
    // Held for the user's answer (--ask), and the answer once there is one.
    bool asked = false;
    std::optional<Answer> answer;
    // For a request to an inspected host: the text of the rule that decided (empty for none).
    std::string rule;
    // A CONNECT whose TLS the proxy terminates, its requests logged each on its own.
    bool inspected = false;
    // For a placeholder-leak: the name of the secret whose placeholder it carried (never the
    // placeholder or the value).
    std::string secret;
    Reason reason = Reason::Allowed;
    int status = 0;
    bool decisionLogged = false;
    uint64_t bytesUp = 0;
    uint64_t bytesDown = 0;
    std::chrono::steady_clock::time_point started;
};

std::string formatDecisionLine(std::string_view client, const ExchangeRecord &record,
                               std::chrono::system_clock::time_point now);
// The question about a held request: {"event":"ask","id":…,"client":…,"method":…,"host":…,
// "port":…,"path":…} (path only for plain HTTP).
std::string formatAskLine(uint64_t question, std::string_view client, const ExchangeRecord &record,
                          std::chrono::system_clock::time_point now);
std::string formatCloseLine(std::string_view client, const ExchangeRecord &record,
                            std::chrono::system_clock::time_point now,
                            std::chrono::steady_clock::duration elapsed);

// Writes whole lines to a file descriptor. A line longer than a pipe's atomic write can take
// several write(2) calls, so lines from the threads of inspected connections are serialised.
class DecisionLog
{
public:
    explicit DecisionLog(int fd)
        : fd_(fd)
    {}
    void write(std::string_view line) const;

private:
    int fd_;
    mutable std::mutex mutex_;
};

} // namespace arizuko::egress
