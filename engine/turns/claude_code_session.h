#pragma once

// Claude Code as a turn's agent: started with the prompt in stream-json
// mode, starting or resuming the topic's session; its stdout typed into
// transcript events (agent/agent_events.h).

#include "turns/agent_session.h"

namespace arizuko::turns {

class ClaudeCodeSession final : public AgentSession
{
public:
    explicit ClaudeCodeSession(AgentLaunch launch);

    AgentKind kind() const override { return AgentKind::Claude; }
    QJsonObject specMembers() const override;
    QList<AgentOutput> read(const QJsonObject &message) override;
    std::optional<QString> takeMovedSession() override;
    QString finalAnswer() const override { return m_finalAnswer; }

private:
    AgentLaunch m_launch;
    // A stdout line longer than one guest message, until its last piece.
    QString m_partialLine;
    QString m_finalAnswer;
    std::optional<QString> m_movedSession;
};

} // namespace arizuko::turns
