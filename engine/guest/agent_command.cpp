// The command agent: one shell command line, for tests and diagnostics.

#include "agent_profile.h"

namespace arizuko::guest {
namespace {

KindLaunch commandLaunch(const TurnSpec &spec, const GuestLayout &layout)
{
    KindLaunch launch;
    launch.argv = {layout.shell, "-c", spec.command};
    // The gateway as Claude Code finds it, for the scripts that run an
    // agent by hand (tests/bench/turn/agent-probes).
    launch.environment = anthropicGateway(spec);
    return launch;
}

// A command is none of the image's agents: nothing is read ahead beside it.
std::vector<std::string> nothingAhead(const GuestLayout &)
{
    return {};
}

} // namespace

const AgentProfile commandProfile{
    .kind = AgentKind::Command,
    .name = "command",
    .usesModel = false,
    .launch = commandLaunch,
    .startedPrompt = nullptr,
    .readAhead = nothingAhead,
    .ownVariables = {},
};

} // namespace arizuko::guest
