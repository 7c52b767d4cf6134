// Claude Code: its session under ~/.claude/projects (claude_session.h), its
// configuration under ~/.claude, the Anthropic Messages API, skills it loads
// itself.

#include "agent/agent_profile.h"
#include "agent/claude_session.h"
#include "agent/start_configuration.h"

namespace arizuko::agent {
namespace {

Result<std::optional<QString>> claudeFile(const HomeDirectory &, const QString &sessionId)
{
    return std::optional<QString>(claudeSessionFile(sessionId));
}

} // namespace

const AgentProfile claudeProfile{
    .name = QLatin1StringView("claude"),
    .title = QLatin1StringView("Claude Code"),
    .sessionFile = claudeFile,
    .forkSession = forkClaudeSession,
    .startConfiguration = claudeStartConfiguration,
    .openAiResponses = false,
    .skillsIndexInPrompt = false,
    .hostTools = true,
};

} // namespace arizuko::agent
