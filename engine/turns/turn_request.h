#pragma once

// What a caller asks for when it starts a turn.

#include <QString>
#include <chrono>

namespace arizuko::turns {

enum class AgentKind
{
    Command,
    Claude
};

QString agentKindName(AgentKind kind);

struct TurnRequest
{
    QString folder;
    QString topic;
    AgentKind agent = AgentKind::Claude;
    // The prompt for claude; the shell command line for the command agent.
    QString prompt;
    // The model the agent asks for; empty: the runner's setting.
    QString model;
    // Zero: the runner's default deadline.
    std::chrono::seconds deadline{0};
};

} // namespace arizuko::turns
