#pragma once

// What a caller asks for when it starts a turn.

#include <QString>
#include <chrono>
#include <optional>

namespace arizuko::turns {

enum class AgentKind
{
    Command,
    Claude,
    Codex,
    Pi,
};

// "command", "claude", "codex", "pi": the turn spec's and the store's names.
QString agentKindName(AgentKind kind);
std::optional<AgentKind> agentKindFromName(const QString &name);

struct TurnRequest
{
    QString folder;
    QString topic;
    AgentKind agent = AgentKind::Claude;
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
