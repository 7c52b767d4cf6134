#include "turns/turn_request.h"

namespace arizuko::turns {

QString agentKindName(AgentKind kind)
{
    switch (kind) {
    case AgentKind::Command:
        return QStringLiteral("command");
    case AgentKind::Claude:
        break;
    case AgentKind::Codex:
        return QStringLiteral("codex");
    case AgentKind::Pi:
        return QStringLiteral("pi");
    }
    return QStringLiteral("claude");
}

std::optional<AgentKind> agentKindFromName(const QString &name)
{
    for (const AgentKind kind :
         {AgentKind::Command, AgentKind::Claude, AgentKind::Codex, AgentKind::Pi}) {
        if (agentKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

} // namespace arizuko::turns
