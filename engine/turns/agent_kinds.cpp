#include "turns/agent_kinds.h"

#include "agent/agent_profile.h"
#include "core/soft_assert.h"
#include "turns/agent_session.h"
#include "turns/claude_code_session.h"
#include "turns/codex_session.h"
#include "turns/command_session.h"
#include "turns/pi_session.h"

#include <iterator>

namespace arizuko::turns {
namespace {

template<typename Session>
std::unique_ptr<AgentSession> makeSession(AgentLaunch launch)
{
    return std::make_unique<Session>(std::move(launch));
}

struct Kind
{
    AgentKind kind;
    const agent::AgentProfile *profile; // null: keeps no conversation
    std::unique_ptr<AgentSession> (*session)(AgentLaunch launch);
};

// Every kind, one line each, in the enum's order.
constexpr Kind kinds[] = {
    {AgentKind::Command, nullptr, makeSession<CommandSession>},
    {AgentKind::Claude, &agent::claudeProfile, makeSession<ClaudeCodeSession>},
    {AgentKind::Codex, &agent::codexProfile, makeSession<CodexSession>},
    {AgentKind::Pi, &agent::piProfile, makeSession<PiSession>},
};

constexpr bool inTheEnumsOrder()
{
    for (size_t index = 0; index < std::size(kinds); ++index) {
        if (static_cast<size_t>(kinds[index].kind) != index)
            return false;
    }
    return true;
}
static_assert(inTheEnumsOrder(), "one line per AgentKind, in its order");

const Kind &kindOf(AgentKind kind)
{
    const auto index = static_cast<size_t>(kind);
    AZ_ASSERT(index < std::size(kinds), return kinds[0]);
    return kinds[index];
}

} // namespace

QString agentKindName(AgentKind kind)
{
    const agent::AgentProfile *profile = kindOf(kind).profile;
    return profile ? QString(profile->name) : QStringLiteral("command");
}

std::optional<AgentKind> agentKindFromName(const QString &name)
{
    for (const Kind &line : kinds) {
        if (agentKindName(line.kind) == name)
            return line.kind;
    }
    return std::nullopt;
}

const agent::AgentProfile *agentProfileOf(AgentKind kind)
{
    return kindOf(kind).profile;
}

AgentKind defaultAgentKind()
{
    for (const Kind &line : kinds) {
        if (line.profile == &agent::defaultAgentProfile())
            return line.kind;
    }
    // Not reached: the default profile has its line (test_spec_round_trip).
    AZ_ASSERT(false, (void)0);
    return AgentKind::Command;
}

std::unique_ptr<AgentSession> makeAgentSession(AgentKind kind, AgentLaunch launch)
{
    return kindOf(kind).session(std::move(launch));
}

} // namespace arizuko::turns
