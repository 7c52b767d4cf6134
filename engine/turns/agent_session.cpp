#include "turns/agent_session.h"

#include "turns/claude_code_session.h"
#include "turns/codex_session.h"
#include "turns/command_session.h"
#include "turns/pi_session.h"

namespace arizuko::turns {

std::unique_ptr<AgentSession> makeAgentSession(AgentKind kind, AgentLaunch launch)
{
    switch (kind) {
    case AgentKind::Claude:
        return std::make_unique<ClaudeCodeSession>(std::move(launch));
    case AgentKind::Codex:
        return std::make_unique<CodexSession>(std::move(launch));
    case AgentKind::Pi:
        return std::make_unique<PiSession>(std::move(launch));
    case AgentKind::Command:
        break;
    }
    return std::make_unique<CommandSession>(std::move(launch));
}

} // namespace arizuko::turns
