#include "policy/route.h"

#include "policy/glob.h"
#include "folders/folder_names.h"

#include <QRegularExpression>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace arizuko::policy {

Result<QList<RoutePredicate>> parseRouteMatch(const QString &match)
{
    static const QRegularExpression key(u"^[A-Za-z0-9_.:-]+$"_s);
    QList<RoutePredicate> predicates;
    for (const QString &token : match.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts)) {
        const qsizetype equals = token.indexOf(u'=');
        // A glob with a control or format character could only hide what it matches.
        const bool unprintable = std::any_of(token.cbegin(), token.cend(), [](QChar c) {
            return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format;
        });
        if (equals <= 0 || unprintable || token.size() > 512 ||
            !key.match(token.first(equals)).hasMatch())
            return makeError(u"policy.bad-route-match"_s,
                             u"route predicate '%1' is not key=glob; use e.g. "
                             u"'platform=cli chat=corp/*' (whitespace-separated, all must "
                             u"match)"_s.arg(token));
        predicates.append({token.first(equals), token.sliced(equals + 1)});
    }
    return predicates;
}

QJsonObject toJson(const Route &route)
{
    return QJsonObject{
        {u"id"_s, route.id},
        {u"seq"_s, route.seq},
        {u"match"_s, route.match},
        {u"target"_s, route.target},
    };
}

bool routePredicatesMatch(const QList<RoutePredicate> &predicates,
                          const MessageAttributes &attributes)
{
    for (const RoutePredicate &predicate : predicates) {
        const auto value = attributes.constFind(predicate.key);
        if (value == attributes.cend() || !globMatches(predicate.glob, *value))
            return false;
    }
    return true;
}

Result<RouteMatch> splitRouteTarget(const Route &route)
{
    const qsizetype hash = route.target.indexOf(u'#');
    const QString folder = hash < 0 ? route.target : route.target.first(hash);
    const QString fragment = hash < 0 ? QString() : route.target.sliced(hash + 1);
    if (!folders::validateFolderPath(folder) || (hash >= 0 && fragment != u"observe"))
        return makeError(u"policy.bad-route-target"_s,
                         u"route target '%1' is not a folder optionally followed by "
                         u"'#observe' (e.g. corp/eng or corp/eng#observe)"_s.arg(route.target));
    return RouteMatch{route, folder, hash >= 0};
}

} // namespace arizuko::policy
