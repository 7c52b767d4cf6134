// The wholesale resources (acl, acl_membership, routes): projected only when
// chosen, each with a warning that applying it replaces the server's table.

#include "core/actors.h"
#include "export/projection_builder.h"
#include "export/server_names.h"
#include "export/server_rows.h"
#include "policy/grant.h"
#include "policy/route.h"

#include <QRegularExpression>
#include <QSet>

namespace arizuko::manifest {
namespace {

QString replacesWarning(const QString &resource, qsizetype rows)
{
    return QStringLiteral(
               "%1: applying this manifest replaces EVERY %1 row on the server with the %2 row(s) "
               "here; rows the server holds that are not listed are deleted")
        .arg(resource, QString::number(rows));
}

// Globs here let `**` span '/'; arizuko's Go path.Match reads it as `*`.
bool spansSegments(const QString &glob)
{
    return glob.contains(QStringLiteral("**"));
}

} // namespace

Result<void> ProjectionBuilder::projectGrants()
{
    if (!includes(QStringLiteral("acl")))
        return {};
    const ResourceSpec &spec = *findResource(QStringLiteral("acl"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name,
        QStringLiteral("SELECT principal, action, scope, effect, params, predicate, granted_by, "
                       "granted_at, grant_option FROM acl ORDER BY id"));
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
        const QString id = QStringLiteral("%1|%2|%3|%4|").arg(principal, action, scope, effect);
        const Result<policy::GrantParams> params =
            policy::paramsFromJson(rows->value(4).toString());
        if (!params) {
            leaveOut(spec.name, id, params.error().message);
            continue;
        }
        if (policy::isWildcardPrincipal(principal)) {
            leaveOut(spec.name, id,
                     QStringLiteral("a wildcard principal: arizuko matches principals "
                                    "exactly"));
            continue;
        }
        if (!rows->value(5).toString().isEmpty()) {
            leaveOut(spec.name, id,
                     QStringLiteral("a claim predicate: this host never satisfies one, arizuko "
                                    "evaluates it against real claims"));
            continue;
        }
        const bool oddParam =
            std::any_of(params->cbegin(), params->cend(), [](const QString &glob) {
                return spansSegments(glob) ||
                       glob.contains(QRegularExpression(QStringLiteral("\\s")));
            });
        if (oddParam) {
            leaveOut(spec.name, id,
                     QStringLiteral("a param glob with '**' or white space: arizuko reads "
                                    "params as space-separated name=glob words"));
            continue;
        }
        const std::optional<QString> folder = principalFolder(principal);
        const std::optional<QString> anchored = scopeFolder(scope);
        if ((folder && !selected(*folder)) || (anchored && !selected(*anchored))) {
            leaveOut(spec.name, id, QStringLiteral("names a folder outside the selection"));
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
        keepOnce(serverGrantRow(QStringLiteral("role:operator"), QStringLiteral("*"),
                                QStringLiteral("**"), QStringLiteral("allow"), {}, actors::seed,
                                seedTimestamp()));
    if (!withGrantOption.isEmpty())
        warn(QStringLiteral("acl: arizuko does not carry WITH GRANT OPTION; these rows lose it: %1")
                 .arg(withGrantOption.join(QStringLiteral(", "))));
    warn(replacesWarning(spec.name, m_projection.document.resources[spec.name].size()));
    return {};
}

Result<void> ProjectionBuilder::projectMemberships()
{
    if (!includes(QStringLiteral("acl_membership")))
        return {};
    const ResourceSpec &spec = *findResource(QStringLiteral("acl_membership"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name,
        QStringLiteral("SELECT m.child, m.parent, g.created_at FROM acl_membership m "
                       "LEFT JOIN groups g ON g.folder = m.child ORDER BY m.child, m.parent"));
    if (!rows)
        return rows.error();
    while (rows->next()) {
        const QString child = rows->value(0).toString(), parent = rows->value(1).toString();
        const std::optional<QString> childFolder = principalFolder(child);
        const std::optional<QString> parentFolder = principalFolder(parent);
        if ((childFolder && !selected(*childFolder)) ||
            (parentFolder && !selected(*parentFolder))) {
            leaveOut(spec.name, child + u'|' + parent + u'|',
                     QStringLiteral("names a folder outside the selection"));
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
    if (!includes(QStringLiteral("routes")))
        return {};
    const ResourceSpec &spec = *findResource(QStringLiteral("routes"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name, QStringLiteral("SELECT seq, match, target FROM routes ORDER BY seq, id"));
    if (!rows)
        return rows.error();
    static const QStringList serverKeys = {QStringLiteral("platform"), QStringLiteral("room"),
                                           QStringLiteral("chat_jid"), QStringLiteral("sender"),
                                           QStringLiteral("verb")};
    QSet<qint64> seqs;
    QStringList tied;
    while (rows->next()) {
        policy::Route route;
        route.seq = rows->value(0).toLongLong();
        route.match = rows->value(1).toString();
        route.target = rows->value(2).toString();
        const QString id =
            QStringLiteral("%1|%2|%3|").arg(QString::number(route.seq), route.match, route.target);
        const Result<QList<policy::RoutePredicate>> predicates =
            policy::parseRouteMatch(route.match);
        const Result<policy::RouteMatch> target = policy::splitRouteTarget(route);
        if (!predicates || !target) {
            leaveOut(spec.name, id, (!predicates ? predicates.error() : target.error()).message);
            continue;
        }
        if (!selected(target->folder)) {
            leaveOut(spec.name, id, QStringLiteral("names a folder outside the selection"));
            continue;
        }
        const auto odd = std::find_if(
            predicates->cbegin(), predicates->cend(), [](const policy::RoutePredicate &p) {
                return !serverKeys.contains(p.key) || spansSegments(p.glob);
            });
        if (odd != predicates->cend()) {
            leaveOut(spec.name, id,
                     QStringLiteral(
                         "'%1=%2': arizuko matches only %3, with globs where '*' and '**' stay "
                         "within one '/' segment")
                         .arg(odd->key, odd->glob, serverKeys.join(QStringLiteral(", "))));
            continue;
        }
        if (seqs.contains(route.seq))
            tied.append(QString::number(route.seq));
        seqs.insert(route.seq);
        keep(spec.name, serverRouteRow(route.seq, route.match, route.target));
    }
    if (!tied.isEmpty())
        warn(QStringLiteral(
                 "routes: several routes share seq %1; which is tried first depends on row ids, "
                 "which a manifest cannot carry")
                 .arg(tied.join(QStringLiteral(", "))));
    warn(replacesWarning(spec.name, m_projection.document.resources[spec.name].size()));
    return {};
}

} // namespace arizuko::manifest
