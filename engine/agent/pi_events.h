#pragma once

// pi's `--mode json` output (and `--mode rpc`'s, a started pi's: the same
// events and its answers to commands), one line at a time, as the same turn events
// Claude Code's stream-json becomes (agent_events.h; shapes verified on
// pi 0.73.1, docs/agents.md). pi reports usage per assistant message and
// ends with agent_end; the reader sums the one and turns the other into
// the turn's result, failed when the last message stopped on an error (pi
// exits 0 then). The agent is untrusted: a line that is not what pi writes
// is kept as plain output.

#include "agent/agent_events.h"

namespace arizuko::agent {

class PiEventReader
{
public:
    QList<AgentEvent> read(const QString &line);

    // The session in pi's session header, the topic's session.
    const QString &sessionId() const { return m_sessionId; }

private:
    AgentEvent init(const QString &sessionId, const QString &cwd);
    QList<AgentEvent> fromAssistant(const QJsonObject &message);
    QList<AgentEvent> fromResponse(const QJsonObject &response);
    AgentEvent result() const;

    QString m_sessionId;
    QString m_lastText;
    QString m_stopReason;
    QString m_errorMessage;
    int m_assistantMessages = 0;
    qint64 m_input = 0;
    qint64 m_output = 0;
    qint64 m_cacheRead = 0;
    qint64 m_cacheWrite = 0;
    double m_cost = 0;
};

} // namespace arizuko::agent
