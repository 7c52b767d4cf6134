#include "decision_log.hpp"

#include "json_line.hpp"

#include <cerrno>
#include <unistd.h>

namespace arizuko::egress {
namespace {

void addTarget(JsonLine &line, std::string_view client, const ExchangeRecord &record)
{
    line.add("client", client)
        .add("method", record.method)
        .add("host", record.host)
        .addNumber("port", record.port);
    if (!record.path.empty())
        line.add("path", record.path);
}

JsonLine describe(std::string_view event, std::string_view client, const ExchangeRecord &record,
                  std::chrono::system_clock::time_point now)
{
    JsonLine line(now, event);
    addTarget(line, client, record);
    line.add("decision", record.reason == Reason::Allowed ? "allow" : "deny")
        .add("reason", reasonCode(record.reason));
    if (!record.rule.empty())
        line.add("rule", record.rule);
    if (record.inspected)
        line.addFlag("inspected", true);
    if (!record.secret.empty())
        line.add("secret", record.secret);
    if (record.asked)
        line.addFlag("asked", true);
    if (record.answer)
        line.add("answer", answerCode(*record.answer));
    return line;
}

} // namespace

std::string formatDecisionLine(std::string_view client, const ExchangeRecord &record,
                               std::chrono::system_clock::time_point now)
{
    return describe("decision", client, record, now).addNumber("status", record.status).finish();
}

std::string formatAskLine(uint64_t question, std::string_view client, const ExchangeRecord &record,
                          std::chrono::system_clock::time_point now)
{
    JsonLine line(now, "ask");
    line.addNumber("id", static_cast<int64_t>(question));
    addTarget(line, client, record);
    return line.finish();
}

std::string formatCloseLine(std::string_view client, const ExchangeRecord &record,
                            std::chrono::system_clock::time_point now,
                            std::chrono::steady_clock::duration elapsed)
{
    return describe("close", client, record, now)
        .addNumber("bytes_up", static_cast<int64_t>(record.bytesUp))
        .addNumber("bytes_down", static_cast<int64_t>(record.bytesDown))
        .addNumber("duration_ms",
                   std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count())
        .finish();
}

void DecisionLog::write(std::string_view line) const
{
    const std::lock_guard lock(mutex_);
    while (!line.empty()) {
        const ssize_t written = ::write(fd_, line.data(), line.size());
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return; // a log reader that went away must not stop the proxy
        }
        line.remove_prefix(static_cast<size_t>(written));
    }
}

} // namespace arizuko::egress
