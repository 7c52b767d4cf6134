// The wholesale resources (acl, acl_membership, routes): projected only when
// chosen, each with a warning that applying it replaces the server's table.

#include "export/projection_builder.h"
#include "export/server_names.h"
#include "export/server_rows.h"
#include "policy/grant.h"
#include "policy/route.h"

#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace arizuko::manifest {
namespace {

QString replacesWarning(const QString &resource, qsizetype rows)
{
    return u"%1: applying this manifest replaces EVERY %1 row on the server with the %2 row(s) "
           u"here; rows the server holds that are not listed are deleted"_s.arg(
               resource, QString::number(rows));
}

// Globs here let `**` span '/'; arizuko's Go path.Match reads it as `*`.
bool spansSegments(const QString &glob)
{
    return glob.contains(u"**"_s);
}

} // namespace

Result<void> ProjectionBuilder::projectGrants()
{
    if (!includes(u"acl"_s))
        return {};
    const ResourceSpec &spec = *findResource(u"acl"_s);
    Result<QSqlQuery> rows = chosenRows(
        spec.name, u"SELECT principal, action, scope, effect, params, predicate, granted_by, "
                   u"granted_at, grant_option FROM acl ORDER BY id"_s);
    if (!rows)
        return rows.error();
    QSet<QByteArray> seen;
    QStringList withGrantOption;
    const auto keepOnce = [&](const Row &row) {
        if (!seen.contains(row.sortKey(spec))) {
            seen.insert(row.sortKey(spec));
            keep(spec.name, row);
        }
    };
    while (rows->next()) {
        const QString principal = rows->value(0).toString(), action = rows->value(1).toString();
        const QString scope = rows->value(2).toString(), effect = rows->value(3).toString();
        const QString id = u"%1|%2|%3|%4|"_s.arg(principal, action, scope, effect);
        const Result<policy::GrantParams> params =
            policy::paramsFromJson(rows->value(4).toString());
        if (!params) {
            leaveOut(spec.name, id, params.error().message);
            continue;
        }
        if (policy::isWildcardPrincipal(principal)) {
            leaveOut(spec.name, id,
                     u"a wildcard principal: arizuko matches principals "
                     u"exactly"_s);
            continue;
        }
        if (!rows->value(5).toString().isEmpty()) {
            leaveOut(spec.name, id,
                     u"a claim predicate: this host never satisfies one, arizuko "
                     u"evaluates it against real claims"_s);
            continue;
        }
        const bool oddParam =
            std::any_of(params->cbegin(), params->cend(), [](const QString &glob) {
                return spansSegments(glob) || glob.contains(QRegularExpression(u"\\s"_s));
            });
        if (oddParam) {
            leaveOut(spec.name, id,
                     u"a param glob with '**' or white space: arizuko reads "
                     u"params as space-separated name=glob words"_s);
            continue;
        }
        const std::optional<QString> folder = principalFolder(principal);
        const std::optional<QString> anchored = scopeFolder(scope);
        if ((folder && !selected(*folder)) || (anchored && !selected(*anchored))) {
            leaveOut(spec.name, id, u"names a folder outside the selection"_s);
            continue;
        }
        if (rows->value(8).toInt() != 0)
            withGrantOption.append(id);
        keepOnce(serverGrantRow(principal, action, scope, effect, *params,
                                rows->value(6).toString(), rows->value(7).toString()));
    }
    // The server's own operator row: without it, replacing acl would lock
    // the server's operators out.
    if (m_projection.options.addServerSeeds)
        keepOnce(serverGrantRow(u"role:operator"_s, u"*"_s, u"**"_s, u"allow"_s, {},
                                u"system:seed"_s, seedTimestamp()));
    if (!withGrantOption.isEmpty())
        warn(u"acl: arizuko does not carry WITH GRANT OPTION; these rows lose it: %1"_s.arg(
            withGrantOption.join(u", "_s)));
    warn(replacesWarning(spec.name, m_projection.document.resources[spec.name].size()));
    return {};
}

Result<void> ProjectionBuilder::projectMemberships()
{
    if (!includes(u"acl_membership"_s))
        return {};
    const ResourceSpec &spec = *findResource(u"acl_membership"_s);
    Result<QSqlQuery> rows = chosenRows(
        spec.name, u"SELECT m.child, m.parent, g.created_at FROM acl_membership m "
                   u"LEFT JOIN groups g ON g.folder = m.child ORDER BY m.child, m.parent"_s);
    if (!rows)
        return rows.error();
    while (rows->next()) {
        const QString child = rows->value(0).toString(), parent = rows->value(1).toString();
        const std::optional<QString> childFolder = principalFolder(child);
        const std::optional<QString> parentFolder = principalFolder(parent);
        if ((childFolder && !selected(*childFolder)) ||
            (parentFolder && !selected(*parentFolder))) {
            leaveOut(spec.name, child + u'|' + parent + u'|',
                     u"names a folder outside the selection"_s);
            continue;
        }
        // A folder's membership is as old as the folder (a trigger adds it).
        const QString since = rows->value(2).toString();
        keep(spec.name,
             serverMembershipRow(child, parent, since.isEmpty() ? seedTimestamp() : since));
    }
    warn(replacesWarning(spec.name, m_projection.document.resources[spec.name].size()));
    return {};
}

Result<void> ProjectionBuilder::projectRoutes()
{
    if (!includes(u"routes"_s))
        return {};
    const ResourceSpec &spec = *findResource(u"routes"_s);
    Result<QSqlQuery> rows =
        chosenRows(spec.name, u"SELECT seq, match, target FROM routes ORDER BY seq, id"_s);
    if (!rows)
        return rows.error();
    static const QStringList serverKeys = {u"platform"_s, u"room"_s, u"chat_jid"_s, u"sender"_s,
                                           u"verb"_s};
    QSet<qint64> seqs;
    QStringList tied;
    while (rows->next()) {
        policy::Route route;
        route.seq = rows->value(0).toLongLong();
        route.match = rows->value(1).toString();
        route.target = rows->value(2).toString();
        const QString id =
            u"%1|%2|%3|"_s.arg(QString::number(route.seq), route.match, route.target);
        const Result<QList<policy::RoutePredicate>> predicates =
            policy::parseRouteMatch(route.match);
        const Result<policy::RouteMatch> target = policy::splitRouteTarget(route);
        if (!predicates || !target) {
            leaveOut(spec.name, id, (!predicates ? predicates.error() : target.error()).message);
            continue;
        }
        if (!selected(target->folder)) {
            leaveOut(spec.name, id, u"names a folder outside the selection"_s);
            continue;
        }
        const auto odd = std::find_if(
            predicates->cbegin(), predicates->cend(), [](const policy::RoutePredicate &p) {
                return !serverKeys.contains(p.key) || spansSegments(p.glob);
            });
        if (odd != predicates->cend()) {
            leaveOut(
                spec.name, id,
                u"'%1=%2': arizuko matches only %3, with globs where '*' and '**' stay "
                u"within one '/' segment"_s.arg(odd->key, odd->glob, serverKeys.join(u", "_s)));
            continue;
        }
        if (seqs.contains(route.seq))
            tied.append(QString::number(route.seq));
        seqs.insert(route.seq);
        keep(spec.name, serverRouteRow(route.seq, route.match, route.target));
    }
    if (!tied.isEmpty())
        warn(u"routes: several routes share seq %1; which is tried first depends on row ids, "
             u"which a manifest cannot carry"_s.arg(tied.join(u", "_s)));
    warn(replacesWarning(spec.name, m_projection.document.resources[spec.name].size()));
    return {};
}

} // namespace arizuko::manifest
