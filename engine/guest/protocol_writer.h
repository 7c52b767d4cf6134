#pragma once

// Writes the guest's side of the turn protocol: one JSON object per line,
// each with a sequence number that strictly increases across all messages.

#include "line_framer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace arizuko::guest {

struct StatusReport
{
    std::string state;         // "booted", "running"
    std::int64_t uptimeMs = 0; // since the guest kernel started
    std::string kernel;        // kernel release, on "booted"
    std::string image;         // the image's inputs hash, on "booted"
};

struct ExitReport
{
    enum class Reason
    {
        Exited,    // the agent exited by itself: `code` is its status
        Signaled,  // the agent died of `signal`
        Timeout,   // the turn deadline passed and the guest stopped it
        Cancelled, // the host asked to stop
        Error,     // the guest could not run the agent: see `message`
    };

    Reason reason = Reason::Error;
    int code = 0;
    int signal = 0;
    std::string message;
    std::int64_t durationMs = 0;
};

// Exit codes a shell would show for the reasons that have no status.
inline constexpr int timeoutExitCode = 124;
inline constexpr int errorExitCode = 125;
inline constexpr int cancelledExitCode = 130;

class ProtocolWriter
{
public:
    std::string status(const StatusReport &report);
    // One piece of an agent stdout line.
    std::string event(const LinePiece &piece);
    // One piece of an agent stderr line (source "agent") or a guest message
    // (source "guest").
    std::string log(std::string_view source, const LinePiece &piece);
    std::string exit(const ExitReport &report);

    std::uint64_t lastSeq() const { return m_nextSeq - 1; }

private:
    std::int64_t takeSeq() { return static_cast<std::int64_t>(m_nextSeq++); }

    std::uint64_t m_nextSeq = 1;
};

} // namespace arizuko::guest
