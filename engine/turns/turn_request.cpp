#include "turns/turn_request.h"

namespace arizuko::turns {

QString agentKindName(AgentKind kind)
{
    return kind == AgentKind::Command ? QStringLiteral("command") : QStringLiteral("claude");
}

} // namespace arizuko::turns
