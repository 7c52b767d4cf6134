#pragma once

// The one `turn` object the host sends: what to run, for whom, how to reach
// the proxy and the model gateway, and by when it must be done.

#include "ipv4_interface.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arizuko::guest {

class SpecError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

enum class AgentKind
{
    Command, // one shell command line: tests and diagnostics
    Claude,  // Claude Code in print mode, stream-json out
    Codex,   // Codex `exec --json` (agent_kinds.h)
    Pi,      // pi `-p --mode json` (agent_kinds.h)
};

// Whether the turn starts the topic's conversation or continues it: Claude
// Code refuses to resume a session that has no file yet.
enum class SessionMode
{
    New,
    Resume,
};

struct TurnSpec
{
    std::string turnId;
    std::string folder;
    std::string topic;
    AgentKind agent = AgentKind::Command;
    std::string prompt;
    std::string command;
    std::string sessionId;
    SessionMode sessionMode = SessionMode::Resume;
    std::string model;
    std::string proxyUrl;
    std::string gatewayUrl;
    std::string gatewayToken;
    // The folder home has skills/<name>/SKILL.md that the host checked.
    bool skills = false;
    std::int64_t timeoutSeconds = 0;
    // The agent's identity; the host picks its own uid so that files in the
    // shared home belong to the desktop user. Absent means 1000; 0 (root in
    // the VM) only when the host sends it explicitly.
    std::uint32_t uid = 1000;
    std::uint32_t gid = 1000;
    std::optional<Ipv4Interface> network;
    // Secrets a shell:env:<KEY> grant puts into the agent's environment
    // (docs/tools.md); never a name the launcher sets itself.
    std::vector<std::pair<std::string, std::string>> environment;
    // The agent reads its prompt from stdin as one stream-json message: in
    // a `prestart` message, the agent to start before any prompt exists; in
    // a `turn`, that the host sent one and expects the agent it started.
    bool prestarted = false;
    // The turn's own CA certificate (PEM) when its proxy inspects hosts
    // (docs/guest.md, "inspect_ca"): trusted by the system store and the
    // variables each tool reads. Never a key: a spec holding one is refused.
    std::string inspectCa;
};

// The spec's name of the kind (its profile's, agent_profile.h).
std::string agentName(AgentKind kind);

inline constexpr std::int64_t protocolVersion = 1;
inline constexpr std::int64_t maxTimeoutSeconds = 7 * 24 * 3600;

// Parses and checks one `turn` line. Unknown members are ignored so that a
// newer host can talk to this guest; a known member of the wrong type, a
// missing required one or a string with a NUL byte is an error.
TurnSpec parseTurnSpec(std::string_view line);

// The `type` member of a JSON line (a host message: "turn", "prestart";
// an agent's event); empty when the line is not a JSON object with a
// string type.
std::string messageType(std::string_view line);

// A boolean member of a JSON line; none when it is missing, not a boolean
// or the line is not JSON.
std::optional<bool> messageFlag(std::string_view line, const char *name);

// Parses and checks a `prestart` line: the fixed part of a Claude Code or pi
// agent a spare starts before its prompt (docs/guest.md). The result is a
// TurnSpec with `prestarted` set, no prompt, a new session, no skills and
// no secrets (each of those is read by the agent only at its start).
TurnSpec parsePrestart(std::string_view line);

// What differs between the agent started from `prestart` and what `spec`
// asks for, as a phrase for the console ("the model"); empty when the
// spec can use that agent.
std::string prestartMismatch(const TurnSpec &prestart, const TurnSpec &spec);

} // namespace arizuko::guest
