#pragma once

// pi as a turn's agent: `pi -p --mode json` in the guest against the
// gateway's Anthropic Messages API (engine/guest/agent_kinds.h), its
// session the topic's (a new one named in pi's session header, resumed by
// id after); its stdout typed by agent::PiEventReader. pi has no MCP: the
// turn's host tools do not reach it.

#include "agent/pi_events.h"
#include "turns/json_lines_session.h"

namespace arizuko::turns {

class PiSession final : public JsonLinesSession
{
public:
    explicit PiSession(AgentLaunch launch)
        : JsonLinesSession(std::move(launch))
    {}

    AgentKind kind() const override { return AgentKind::Pi; }
    QJsonObject specMembers() const override { return agentSpecMembers(); }

private:
    QList<agent::AgentEvent> eventsFromLine(const QString &line) override
    {
        return m_reader.read(line);
    }

    agent::PiEventReader m_reader;
};

} // namespace arizuko::turns
