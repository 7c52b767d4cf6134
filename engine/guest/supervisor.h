#pragma once

// Runs the turn's main loop while the agent lives: its output goes to the
// host line by line, the deadline and the host's cancel stop it.

#include "agent_launch.h"
#include "agent_process.h"
#include "protocol_writer.h"
#include "turn_channel.h"

#include <chrono>

namespace arizuko::guest {

struct TurnLimits
{
    std::chrono::steady_clock::time_point deadline;
    std::int64_t timeoutSeconds = 0;
    // How long output may still be drained once the agent is gone or stopped
    // (a background process can hold a pipe open forever).
    std::chrono::milliseconds drainGrace{2000};
};

// Returns how the agent ended; all its output has been sent by then. An
// agent started with a stdin pipe gets `prompt.input` on it, and its stdin
// closed after the first line that ends its answer (one prompt per turn:
// it then exits).
ExitReport supervise(AgentProcess &agent, TurnChannel &channel, ProtocolWriter &writer,
                     const TurnLimits &limits, StartedPrompt prompt = {});

} // namespace arizuko::guest
