#include "policy/action.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

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
        u"^(\\*|[a-z][a-z0-9_-]*|mcp:(\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$"_s);
    // A tool name longer than this is no tool anyone registers.
    constexpr qsizetype kMaxActionLength = 128;
    if (action.size() <= kMaxActionLength && accepted.match(action).hasMatch())
        return {};
    return makeError(u"policy.bad-action"_s,
                     u"action '%1' is not valid; use *, admin, interact, egress, mcp:* or "
                     u"mcp:<tool> (for example mcp:send_file)"_s.arg(action));
}

} // namespace arizuko::policy
