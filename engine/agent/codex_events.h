#pragma once

// Codex's `exec --json` output, one line at a time, as the same turn events
// Claude Code's stream-json becomes (agent_events.h; shapes verified on
// Codex 0.171.0, docs/agents.md). Codex reports a command when it starts
// and again when it ends, so the reader remembers which calls it has shown.
// The agent is untrusted: a line that is not what Codex writes is kept as
// plain output.

#include "agent/agent_events.h"

#include <QSet>

namespace arizuko::agent {

class CodexEventReader
{
public:
    QList<AgentEvent> read(const QString &line);

    // The thread the turn ran in (thread.started), the topic's session.
    const QString &threadId() const { return m_threadId; }

private:
    QList<AgentEvent> fromItem(const QJsonObject &item, bool completed);

    QString m_threadId;
    QString m_lastText;
    QSet<QString> m_shownCalls;
};

} // namespace arizuko::agent
