#include "policy/action.h"

#include "policy/glob.h"

#include <QRegularExpression>

namespace arizuko::policy {

bool isToolAction(QStringView action)
{
    return action.startsWith(u"mcp:") && action.size() > 4;
}

bool isConnectorAction(QStringView action)
{
    return action.startsWith(u"ext:") && action.size() > 4;
}

QString shellEnvKey(QStringView action)
{
    constexpr QStringView prefix = u"shell:env:";
    return action.startsWith(prefix) ? action.mid(prefix.size()).toString() : QString();
}

namespace {

// `:` as the glob's separator: ext:github:* is ext/github/* to the matcher.
QString asGlobPath(QStringView action)
{
    QString path = action.toString();
    path.replace(QLatin1Char(':'), QLatin1Char('/'));
    return path;
}

} // namespace

bool actionCovers(QStringView granted, QStringView requested)
{
    if (granted == requested)
        return true;
    // A secret in the guest is never implied: only its own row puts it there.
    if (granted == u"*")
        return shellEnvKey(requested).isEmpty();
    if (isConnectorAction(granted) && isConnectorAction(requested))
        return hasGlobWildcard(requested) ? globCovers(asGlobPath(granted), asGlobPath(requested))
                                          : globMatches(asGlobPath(granted), asGlobPath(requested));
    if (granted == u"admin")
        return requested == u"interact" || isToolAction(requested);
    if (granted == u"mcp:*")
        return isToolAction(requested);
    return false;
}

Result<void> validateAction(const QString &action)
{
    static const QRegularExpression accepted(
        QStringLiteral("^(\\*|[a-z][a-z0-9_-]*|mcp:(\\*|[A-Za-z0-9][A-Za-z0-9_.-]*)"
                       "|ext(:(\\*\\*|[a-z0-9*?][a-z0-9_*?-]*)){1,5}"
                       "|shell:env:[A-Za-z_][A-Za-z0-9_]*)$"));
    // A tool name longer than this is no tool anyone registers.
    constexpr qsizetype kMaxActionLength = 128;
    if (action.size() <= kMaxActionLength && accepted.match(action).hasMatch())
        return {};
    return makeError(
        QStringLiteral("policy.bad-action"),
        QStringLiteral("action '%1' is not valid; use *, admin, interact, egress, mcp:*, "
                       "mcp:<tool> (for example mcp:send_file), ext:<service>:<operation> (for "
                       "example ext:github:issues:read or ext:github:**) or shell:env:<KEY>")
            .arg(action));
}

} // namespace arizuko::policy
