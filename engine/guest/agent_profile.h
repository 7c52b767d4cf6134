#pragma once

// What the guest does differently for each kind of agent, gathered per kind
// (agent_command.cpp, agent_claude.cpp, agent_codex.cpp, agent_pi.cpp): its
// name in the spec, whether it talks to the turn's model, its launch, how a
// started one takes its prompt, and what of the image is read ahead beside
// its start. A new kind is a new file here, a value of AgentKind and a line
// in agent_profile.cpp; the host's side is engine/agent/agent_profile.h.

#include "agent_launch.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::guest {

struct AgentProfile
{
    AgentKind kind;
    const char *name; // the spec's "agent", as the host writes it
    // Runs against the turn's model: its spec brings a prompt and the
    // gateway (a command brings its shell line).
    bool usesModel;
    // Its argv, the environment it adds to the common one, its scratch
    // files and the home directories and links that keep its sessions.
    KindLaunch (*launch)(const TurnSpec &spec, const GuestLayout &layout);
    // A started agent's prompt on stdin (agent_launch.h); null for a kind
    // that is never started before its prompt.
    StartedPrompt (*startedPrompt)(const std::string &prompt);
    // What of the image it reads first at its start: read into the page
    // cache beside it once the guest knows the agent (page_cache.h).
    std::vector<std::string> (*readAhead)(const GuestLayout &layout);
    // The variables its launch sets beyond the common ones (but ARIZUKO_*
    // and ANTHROPIC_*, reserved as prefixes): no shell:env secret may take
    // their place (parseTurnSpec).
    std::span<const std::string_view> ownVariables;
};

// One per kind; defined in the kind's own file.
extern const AgentProfile commandProfile;
extern const AgentProfile claudeProfile;
extern const AgentProfile codexProfile;
extern const AgentProfile piProfile;

const AgentProfile &agentProfile(AgentKind kind);
// The profile the spec's name means; null for a name no kind has.
const AgentProfile *agentProfileNamed(std::string_view name);
// "command, claude, codex, pi", for a message about an unknown name.
std::string agentNames();
// Whether the launch of some kind sets `name` itself (ownVariables).
bool isAgentVariable(std::string_view name);

} // namespace arizuko::guest
