#include "agent_profile.h"

namespace arizuko::guest {
namespace {

// Every kind, one line each.
const AgentProfile *const profiles[] = {
    &commandProfile,
    &claudeProfile,
    &codexProfile,
    &piProfile,
};

} // namespace

const AgentProfile &agentProfile(AgentKind kind)
{
    for (const AgentProfile *profile : profiles) {
        if (profile->kind == kind)
            return *profile;
    }
    return commandProfile; // unreachable: every AgentKind has a profile
}

const AgentProfile *agentProfileNamed(std::string_view name)
{
    for (const AgentProfile *profile : profiles) {
        if (name == profile->name)
            return profile;
    }
    return nullptr;
}

bool isAgentVariable(std::string_view name)
{
    for (const AgentProfile *profile : profiles) {
        for (const std::string_view variable : profile->ownVariables) {
            if (name == variable)
                return true;
        }
    }
    return false;
}

std::string agentNames()
{
    std::string names;
    for (const AgentProfile *profile : profiles)
        names += (names.empty() ? "" : ", ") + std::string(profile->name);
    return names;
}

} // namespace arizuko::guest
