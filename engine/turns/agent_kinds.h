#pragma once

// Every kind of agent a turn runs, in one table (agent_kinds.cpp, a line
// each): its name, what the engine does for it as a conversation (its
// agent::AgentProfile, engine/agent/agent_profile.h; none for the command
// agent, which keeps no conversation and talks to no model) and the session
// that reads its output (agent_session.h, makeAgentSession).

#include <QString>
#include <optional>

namespace arizuko::agent {
struct AgentProfile;
}

namespace arizuko::turns {

enum class AgentKind
{
    Command,
    Claude,
    Codex,
    Pi,
};

// "command", else its profile's name: the turn spec's and the store's
// names.
QString agentKindName(AgentKind kind);
std::optional<AgentKind> agentKindFromName(const QString &name);
// The kind's profile; null for the command agent.
const agent::AgentProfile *agentProfileOf(AgentKind kind);
// The kind a turn runs when none is named (agent::defaultAgentProfile()).
AgentKind defaultAgentKind();

} // namespace arizuko::turns
