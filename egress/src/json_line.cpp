#include "json_line.hpp"

#include <cstdio>
#include <ctime>

namespace arizuko::egress {

std::string formatUtcTime(std::chrono::system_clock::time_point time)
{
    const auto sinceEpoch = time.time_since_epoch();
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(sinceEpoch);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch - seconds);
    const std::time_t whole = seconds.count();
    std::tm utc{};
    gmtime_r(&whole, &utc);
    char text[80];
    std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(millis.count()));
    return text;
}

JsonLine::JsonLine(std::chrono::system_clock::time_point time, std::string_view event)
{
    add("time", formatUtcTime(time));
    add("event", event);
}

// Client-supplied text is not trusted to be UTF-8; jsontext keeps each line
// valid JSON and valid UTF-8 whatever it is.
JsonLine &JsonLine::add(std::string_view key, std::string_view value)
{
    object_.add(key, value);
    return *this;
}

JsonLine &JsonLine::addNumber(std::string_view key, int64_t value)
{
    object_.add(key, static_cast<std::int64_t>(value));
    return *this;
}

JsonLine &JsonLine::addFlag(std::string_view key, bool value)
{
    object_.add(key, value);
    return *this;
}

std::string JsonLine::finish()
{
    return std::move(object_).finish() + "\n";
}

} // namespace arizuko::egress
