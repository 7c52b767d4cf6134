#pragma once

// What a caller asks for when it starts a turn.

#include "turns/agent_kinds.h"

#include <QString>
#include <chrono>

namespace arizuko::turns {

struct TurnRequest
{
    QString folder;
    QString topic;
    AgentKind agent = defaultAgentKind();
    // The agent's prompt; the shell command line for the command agent.
    QString prompt;
    // The model the agent asks for; empty: the runner's setting.
    QString model;
    // The built-in demo model whatever the runner's provider (the first-run
    // guide's demo turn: no credential needed, clearly a demonstration).
    bool demoModel = false;
    // Zero: the runner's default deadline.
    std::chrono::seconds deadline{0};
    // How many delegate_group / escalate_group calls led to this turn.
    int depth = 0;
    // Set by escalate_group: the topic this turn's final answer is posted to.
    QString replyFolder;
    QString replyTopic;
};

} // namespace arizuko::turns
