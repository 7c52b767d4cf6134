#pragma once

// The agent's side of one turn, one implementation per kind of agent: what
// the turn spec tells the guest to run, what the agent's output lines mean
// as transcript events, the session it resumes or moves to, and its final
// answer. A new kind of agent is a new implementation and a line in
// agent_kinds.cpp, not new branches in the turn.

#include "turns/turn_request.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace arizuko::turns {

// What the runner resolved that the agent is started with.
struct AgentLaunch
{
    QString prompt; // the prompt, or the command agent's shell line
    QString model;
    QString sessionId;
    // The topic's first turn (or one after its session file was lost)
    // starts the session; later turns resume it.
    bool newSession = false;
    // What observed folders posted since the topic's last turn, put before
    // the prompt.
    QString observedContext;
    // The folder's skills as an index for the prompt, for an agent that
    // does not load them itself (Codex: agent::skillsIndex).
    QString skillsIndex;
};

// One transcript event made of the agent's output; `chars` is what it
// counts against the turn's output budget.
struct AgentOutput
{
    QString kind;
    QJsonObject json;
    qsizetype chars = 0;
};

class AgentSession
{
public:
    virtual ~AgentSession() = default;

    virtual AgentKind kind() const = 0;
    // The turn spec's members about the agent (docs/guest.md): agent,
    // prompt, command, session_id, session_mode, model.
    virtual QJsonObject specMembers() const = 0;
    // One `event` message of the guest (a stdout line of the agent, or a
    // piece of one) as the events the transcript keeps; none while a long
    // line is still arriving.
    virtual QList<AgentOutput> read(const QJsonObject &message) = 0;
    // The session the agent moved to since the last call, once: the topic
    // resumes under it next time.
    virtual std::optional<QString> takeMovedSession() = 0;
    // The agent's last answer, for a turn that answers another topic.
    virtual QString finalAnswer() const = 0;
};

// The session of `kind` (its line in agent_kinds.cpp).
std::unique_ptr<AgentSession> makeAgentSession(AgentKind kind, AgentLaunch launch);

} // namespace arizuko::turns
