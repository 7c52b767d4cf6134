#include "policy/route.h"

#include "policy/glob.h"
#include "folders/folder_names.h"

#include <QRegularExpression>
#include <algorithm>

namespace arizuko::policy {

Result<QList<RoutePredicate>> parseRouteMatch(const QString &match)
{
    static const QRegularExpression key(QStringLiteral("^[A-Za-z0-9_.:-]+$"));
    QList<RoutePredicate> predicates;
    for (const QString &token :
         match.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        const qsizetype equals = token.indexOf(u'=');
        // A glob with a control or format character could only hide what it matches.
        const bool unprintable = std::any_of(token.cbegin(), token.cend(), [](QChar c) {
            return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format;
        });
        if (equals <= 0 || unprintable || token.size() > 512 ||
            !key.match(token.first(equals)).hasMatch())
            return makeError(
                QStringLiteral("policy.bad-route-match"),
                QStringLiteral("route predicate '%1' is not key=glob; use e.g. "
                               "'platform=cli chat=corp/*' (whitespace-separated, all must "
                               "match)")
                    .arg(token));
        predicates.append({token.first(equals), token.sliced(equals + 1)});
    }
    return predicates;
}

QJsonObject toJson(const Route &route)
{
    return QJsonObject{
        {QStringLiteral("id"), route.id},
        {QStringLiteral("seq"), route.seq},
        {QStringLiteral("match"), route.match},
        {QStringLiteral("target"), route.target},
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
        return makeError(QStringLiteral("policy.bad-route-target"),
                         QStringLiteral("route target '%1' is not a folder optionally followed by "
                                        "'#observe' (e.g. corp/eng or corp/eng#observe)")
                             .arg(route.target));
    return RouteMatch{route, folder, hash >= 0};
}

ParsedRoute parseRoute(Route route)
{
    auto predicates = parseRouteMatch(route.match);
    return {std::move(route), predicates ? std::optional(*predicates) : std::nullopt};
}

std::optional<RouteMatch> resolveRoute(const QList<ParsedRoute> &routes,
                                       const MessageAttributes &attributes)
{
    for (const ParsedRoute &parsed : routes) {
        if (!parsed.predicates || !routePredicatesMatch(*parsed.predicates, attributes))
            continue;
        // A stored target that does not parse cannot be delivered to; the next
        // route gets its chance rather than the message going nowhere silently.
        if (auto split = splitRouteTarget(parsed.route))
            return *split;
    }
    return std::nullopt;
}

} // namespace arizuko::policy
