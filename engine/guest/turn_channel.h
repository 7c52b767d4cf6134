#pragma once

// The virtio-serial port the turn protocol runs over: newline-delimited
// JSON, host lines in, guest lines out.

#include "line_framer.h"
#include "system_error.h"
#include "posix/unique_fd.h"

#include <chrono>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace arizuko::guest {

class TurnChannel
{
public:
    // Finds the port named `portName` under /sys/class/virtio-ports (there is
    // no udev for the /dev/virtio-ports links) and opens it.
    static TurnChannel open(const std::string &portName, std::chrono::milliseconds wait);

    int fd() const { return m_fd.get(); }

    // Writes all of `text`; blocks while the host is not reading.
    void send(std::string_view text);

    // The next line from the host, waiting until `deadline`; nullopt then.
    std::optional<std::string> readLine(std::chrono::steady_clock::time_point deadline);

    // Without waiting: reads what the port has and returns whether the host
    // is connected. Complete lines are queued for takeLine().
    bool pump();
    std::optional<std::string> takeLine();

private:
    explicit TurnChannel(posix::UniqueFd fd);

    posix::UniqueFd m_fd;
    LineFramer m_framer;
    std::deque<std::string> m_lines;
};

} // namespace arizuko::guest
