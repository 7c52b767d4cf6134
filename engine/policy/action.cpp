#include "policy/action.h"

#include <QRegularExpression>

namespace arizuko::policy {

bool isToolAction(QStringView action)
{
    return action.startsWith(u"mcp:") && action.size() > 4;
}

bool actionCovers(QStringView granted, QStringView requested)
{
    if (granted == requested || granted == u"*")
        return true;
    if (granted == u"admin")
        return requested == u"interact" || isToolAction(requested);
    if (granted == u"mcp:*")
        return isToolAction(requested);
    return false;
}

Result<void> validateAction(const QString &action)
{
    static const QRegularExpression accepted(
        QStringLiteral("^(\\*|[a-z][a-z0-9_-]*|mcp:(\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$"));
    // A tool name longer than this is no tool anyone registers.
    constexpr qsizetype kMaxActionLength = 128;
    if (action.size() <= kMaxActionLength && accepted.match(action).hasMatch())
        return {};
    return makeError(
        QStringLiteral("policy.bad-action"),
        QStringLiteral("action '%1' is not valid; use *, admin, interact, egress, mcp:* or "
                       "mcp:<tool> (for example mcp:send_file)")
            .arg(action));
}

} // namespace arizuko::policy
