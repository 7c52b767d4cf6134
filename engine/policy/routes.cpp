#include "policy/routes.h"

#include "store/query.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QVariant>
#include <algorithm>

namespace arizuko::policy {
namespace {

// Where route `id` stands in the ordered list.
Result<qsizetype> positionOf(const QList<Route> &routes, qint64 id)
{
    const auto found = std::find_if(routes.cbegin(), routes.cend(),
                                    [id](const Route &route) { return route.id == id; });
    if (found == routes.cend())
        return makeError(QStringLiteral("policy.no-such-route"),
                         QStringLiteral("there is no route #%1").arg(id));
    return std::distance(routes.cbegin(), found);
}

} // namespace

Routes::Routes(PolicyCache &cache, audit::AuditLog &audit)
    : m_cache(cache)
    , m_audit(audit)
{}

Result<Route> Routes::add(qint64 seq, const QString &match, const QString &target,
                          const QString &actor)
{
    // A catch-all's match may be (or simplify to) a null QString, which QtSql
    // would bind as NULL.
    const QString simplified = match.simplified();
    Route route{0, seq, simplified.isNull() ? QStringLiteral("") : simplified, target};
    if (auto predicates = parseRouteMatch(route.match); !predicates)
        return predicates.error();
    if (auto split = splitRouteTarget(route); !split)
        return split.error();
    return m_audit.writeAudited([&]() -> Result<Route> {
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("INSERT INTO routes (seq, match, target) VALUES (?, ?, ?)"));
        query.addBindValue(route.seq);
        query.addBindValue(route.match);
        query.addBindValue(route.target);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot add the route"));
        route.id = query.lastInsertId().toLongLong();
        if (auto recorded =
                m_audit.record(actor, QStringLiteral("route.add"), route.target, toJson(route));
            !recorded)
            return recorded.error();
        return route;
    });
}

Result<Route> Routes::remove(qint64 id, const QString &actor)
{
    return m_audit.writeAudited([&]() -> Result<Route> {
        auto routes = list();
        if (!routes)
            return routes.error();
        const Result<qsizetype> index = positionOf(*routes, id);
        if (!index)
            return index.error();
        const Route removed = routes->at(*index);
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("DELETE FROM routes WHERE id = ?"));
        query.addBindValue(id);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot remove the route"));
        if (auto recorded = m_audit.record(actor, QStringLiteral("route.remove"), removed.target,
                                           toJson(removed));
            !recorded)
            return recorded.error();
        return removed;
    });
}

Result<QList<Route>> Routes::move(qint64 id, qsizetype position, const QString &actor)
{
    return m_audit.writeAudited([&]() -> Result<QList<Route>> {
        auto routes = list();
        if (!routes)
            return routes.error();
        const Result<qsizetype> index = positionOf(*routes, id);
        if (!index)
            return index.error();
        if (position < 0 || position >= routes->size())
            return makeError(QStringLiteral("policy.bad-position"),
                             QStringLiteral("position %1 is outside the %2 routes")
                                 .arg(position)
                                 .arg(routes->size()));
        const QString movedTarget = routes->at(*index).target;
        const qsizetype from = *index;
        QList<qint64> seqs;
        for (const Route &route : std::as_const(*routes))
            seqs << route.seq;
        const bool distinct = std::adjacent_find(seqs.cbegin(), seqs.cend()) == seqs.cend();
        routes->move(from, position);
        QJsonArray order;
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("UPDATE routes SET seq = ? WHERE id = ?"));
        for (qsizetype index = 0; index < routes->size(); ++index) {
            Route &route = (*routes)[index];
            const qint64 seq = distinct ? seqs.at(index) : (index + 1) * 10;
            order.append(route.id);
            if (route.seq == seq)
                continue;
            route.seq = seq;
            query.addBindValue(seq);
            query.addBindValue(route.id);
            if (!query.exec())
                return store::sqlError(query, QStringLiteral("cannot reorder the routes"));
        }
        const QJsonObject detail{{QStringLiteral("moved"), id},
                                 {QStringLiteral("position"), position},
                                 {QStringLiteral("order"), order}};
        if (auto recorded =
                m_audit.record(actor, QStringLiteral("route.reorder"), movedTarget, detail);
            !recorded)
            return recorded.error();
        return *routes;
    });
}

Result<QList<Route>> Routes::list()
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    QList<Route> routes;
    for (const ParsedRoute &parsed : (*snapshot)->routes)
        routes << parsed.route;
    return routes;
}

Result<std::optional<RouteMatch>> Routes::resolve(const MessageAttributes &attributes)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    return resolveRoute((*snapshot)->routes, attributes);
}

} // namespace arizuko::policy
