#pragma once

// What Claude Code, Codex and pi have in common as a turn's agent: one
// JSON object per stdout line, read by the kind's own reader into
// transcript events; an `init` event naming the session the agent writes
// to (the topic resumes under it next time) and a `result` with its answer.

#include "agent/agent_events.h"
#include "turns/agent_session.h"

namespace arizuko::turns {

class JsonLinesSession : public AgentSession
{
public:
    QList<AgentOutput> read(const QJsonObject &message) final;
    std::optional<QString> takeMovedSession() final;
    QString finalAnswer() const final { return m_finalAnswer; }

protected:
    explicit JsonLinesSession(AgentLaunch launch);

    // The spec's members common to the three: the kind, the prompt (after
    // what observed folders posted, and `preamble`), the session and model.
    QJsonObject agentSpecMembers(const QString &preamble = {}) const;
    const AgentLaunch &launch() const { return m_launch; }

private:
    // One whole line of the agent's stdout as events, by the kind's reader.
    virtual QList<agent::AgentEvent> eventsFromLine(const QString &line) = 0;

    AgentLaunch m_launch;
    // A stdout line longer than one guest message, until its last piece.
    QString m_partialLine;
    QString m_finalAnswer;
    std::optional<QString> m_movedSession;
};

} // namespace arizuko::turns
