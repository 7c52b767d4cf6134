#include "turns/command_session.h"

namespace arizuko::turns {

QJsonObject CommandSession::specMembers() const
{
    return {
        {QStringLiteral("agent"), agentKindName(AgentKind::Command)},
        {QStringLiteral("prompt"), QString()},
        {QStringLiteral("command"), m_launch.prompt},
        {QStringLiteral("session_id"), m_launch.sessionId},
        {QStringLiteral("session_mode"),
         m_launch.newSession ? QStringLiteral("new") : QStringLiteral("resume")},
        {QStringLiteral("model"), m_launch.model},
    };
}

QList<AgentOutput> CommandSession::read(const QJsonObject &message)
{
    return {{QStringLiteral("event"), message,
             message.value(QStringLiteral("line")).toString().size()}};
}

} // namespace arizuko::turns
