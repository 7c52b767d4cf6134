#pragma once

// The command agent: a shell line run in the guest (the benchmark,
// diagnostics and the tests' agent). Its output is kept line by line as it
// is; it has no session and no answer of its own.

#include "turns/agent_session.h"

namespace arizuko::turns {

class CommandSession final : public AgentSession
{
public:
    explicit CommandSession(AgentLaunch launch)
        : m_launch(std::move(launch))
    {}

    AgentKind kind() const override { return AgentKind::Command; }
    QJsonObject specMembers() const override;
    QList<AgentOutput> read(const QJsonObject &message) override;
    std::optional<QString> takeMovedSession() override { return std::nullopt; }
    QString finalAnswer() const override { return {}; }

private:
    AgentLaunch m_launch;
};

} // namespace arizuko::turns
