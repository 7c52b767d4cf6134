#pragma once

// A row of `routes`: which folder (target) an incoming message goes to, chosen by
// the lowest seq whose whitespace-separated key=glob predicates all match.

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace arizuko::policy {

// Message attributes by name, e.g. {"platform": "cli", "chat": "corp/eng"}.
using MessageAttributes = QMap<QString, QString>;

struct RoutePredicate
{
    QString key;
    QString glob;
};

struct Route
{
    qint64 id = 0;
    qint64 seq = 0;
    QString match;  // "key=glob key=glob ..."; empty matches every message
    QString target; // folder, optionally with "#observe"
};

// A route with its match parsed once, as resolveRoute() tries it.
struct ParsedRoute
{
    Route route;
    // Empty when the stored match does not parse: such a route never matches.
    std::optional<QList<RoutePredicate>> predicates;
};

struct RouteMatch
{
    Route route;
    QString folder; // the target without "#observe"
    bool observe = false;
};

} // namespace arizuko::policy

#include "core/result.h"

namespace arizuko::policy {

// Splits "k=glob k2=glob2" into predicates; refuses a token without '=' or an
// empty key, naming the token and the accepted form.
Result<QList<RoutePredicate>> parseRouteMatch(const QString &match);

// Every predicate's key is present and its value matches the glob (`*` does not
// cross '/').
// The row as the audit log and `arizukoctl --json` show it.
QJsonObject toJson(const Route &route);

bool routePredicatesMatch(const QList<RoutePredicate> &predicates,
                          const MessageAttributes &attributes);

// "corp/eng#observe" -> ("corp/eng", true); the only fragment a target may carry
// is "observe".
Result<RouteMatch> splitRouteTarget(const Route &route);

ParsedRoute parseRoute(Route route);

// Where a message goes: the first of `routes` (in the order they are tried)
// whose predicates all match and whose target parses; none: nullopt.
std::optional<RouteMatch> resolveRoute(const QList<ParsedRoute> &routes,
                                       const MessageAttributes &attributes);

} // namespace arizuko::policy
