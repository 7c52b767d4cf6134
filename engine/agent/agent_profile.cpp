#include "agent/agent_profile.h"

namespace arizuko::agent {
namespace {

// Every kind that keeps a conversation, one line each.
const AgentProfile *const profiles[] = {
    &claudeProfile,
    &codexProfile,
    &piProfile,
};

} // namespace

std::span<const AgentProfile *const> agentProfiles()
{
    return profiles;
}

const AgentProfile &defaultAgentProfile()
{
    return claudeProfile;
}

const AgentProfile *agentProfile(const QString &name)
{
    for (const AgentProfile *profile : profiles) {
        if (name == profile->name)
            return profile;
    }
    return nullptr;
}

QStringList conversationAgentNames()
{
    QStringList names;
    for (const AgentProfile *profile : profiles)
        names << QString(profile->name);
    return names;
}

} // namespace arizuko::agent
