#pragma once

// Builds one JSON object on one line, the format of every line the proxy logs.

#include "jsontext/object_writer.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace arizuko::egress {

class JsonLine
{
public:
    // Starts the object with "time" (UTC, milliseconds) and "event".
    JsonLine(std::chrono::system_clock::time_point time, std::string_view event);

    JsonLine &add(std::string_view key, std::string_view value);
    JsonLine &addNumber(std::string_view key, int64_t value);
    JsonLine &addFlag(std::string_view key, bool value);

    // The object with its closing brace and a newline.
    std::string finish();

private:
    jsontext::ObjectWriter object_;
};

std::string formatUtcTime(std::chrono::system_clock::time_point time);

} // namespace arizuko::egress
