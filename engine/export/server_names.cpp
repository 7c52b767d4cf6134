#include "export/server_names.h"

#include <QRegularExpression>

namespace arizuko::manifest {

const QString folderPrefix = QStringLiteral("folder:");

std::optional<QString> principalFolder(const QString &desktopPrincipal)
{
    if (desktopPrincipal.isEmpty() || desktopPrincipal.contains(u':') ||
        desktopPrincipal.contains(u'*'))
        return std::nullopt;
    return desktopPrincipal;
}

QString serverPrincipal(const QString &desktopPrincipal)
{
    return principalFolder(desktopPrincipal) ? folderPrefix + desktopPrincipal : desktopPrincipal;
}

QString desktopPrincipal(const QString &serverPrincipal)
{
    return serverPrincipal.startsWith(folderPrefix) ? serverPrincipal.sliced(folderPrefix.size())
                                                    : serverPrincipal;
}

std::optional<QString> scopeFolder(const QString &scope)
{
    if (scope == u"**")
        return std::nullopt;
    for (const QString &suffix : {QStringLiteral("/**"), QStringLiteral("/*")})
        if (scope.endsWith(suffix))
            return scope.chopped(suffix.size());
    return scope;
}

QString serverParams(const policy::GrantParams &params)
{
    QStringList words;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        words.append(it.key() + u'=' + it.value());
    return words.join(u' ');
}

Result<policy::GrantParams> desktopParams(const QString &serverParams)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    policy::GrantParams params;
    for (const QString &word : serverParams.split(space, Qt::SkipEmptyParts)) {
        const qsizetype equals = word.indexOf(u'=');
        if (equals <= 0)
            return makeError(QStringLiteral("import.bad-params"),
                             QStringLiteral("'%1' is not name=glob").arg(word));
        if (params.contains(word.first(equals)))
            return makeError(QStringLiteral("import.bad-params"),
                             QStringLiteral("param '%1' is named twice").arg(word.first(equals)));
        params.insert(word.first(equals), word.sliced(equals + 1));
    }
    return params;
}

bool inSubtree(const QString &folder, const QString &root)
{
    if (root.isEmpty())
        return folder.isEmpty();
    return folder == root || folder.startsWith(root + u'/');
}

} // namespace arizuko::manifest
