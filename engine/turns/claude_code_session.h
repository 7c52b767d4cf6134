#pragma once

// Claude Code as a turn's agent: started with the prompt in stream-json
// mode, starting or resuming the topic's session; its stdout typed into
// transcript events (agent/agent_events.h).

#include "turns/json_lines_session.h"

namespace arizuko::turns {

class ClaudeCodeSession final : public JsonLinesSession
{
public:
    explicit ClaudeCodeSession(AgentLaunch launch)
        : JsonLinesSession(std::move(launch))
    {}

    AgentKind kind() const override { return AgentKind::Claude; }
    QJsonObject specMembers() const override { return agentSpecMembers(); }

private:
    QList<agent::AgentEvent> eventsFromLine(const QString &line) override
    {
        return agent::agentEventsFromLine(line);
    }
};

} // namespace arizuko::turns
