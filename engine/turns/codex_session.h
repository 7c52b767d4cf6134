#pragma once

// Codex as a turn's agent: `codex exec --json` in the guest against the
// gateway's Responses API (engine/guest/agent_kinds.h), its thread the
// topic's session (a new one reported in thread.started, resumed by id
// after); its stdout typed by agent::CodexEventReader. The folder's skills
// reach it as a <skills> index before the prompt.

#include "agent/codex_events.h"
#include "turns/json_lines_session.h"

namespace arizuko::turns {

class CodexSession final : public JsonLinesSession
{
public:
    explicit CodexSession(AgentLaunch launch)
        : JsonLinesSession(std::move(launch))
    {}

    AgentKind kind() const override { return AgentKind::Codex; }
    QJsonObject specMembers() const override { return agentSpecMembers(launch().skillsIndex); }

private:
    QList<agent::AgentEvent> eventsFromLine(const QString &line) override
    {
        return m_reader.read(line);
    }

    agent::CodexEventReader m_reader;
};

} // namespace arizuko::turns
