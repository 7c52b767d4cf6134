#include "export/projection.h"

#include "export/canonical_emitter.h"
#include "export/projection_builder.h"
#include "export/read_snapshot.h"
#include "export/server_names.h"
#include "export/server_rows.h"
#include "export/yaml_scalar.h"
#include "policy/host_name.h"
#include "store/query.h"
#include "store/store.h"

#include <QRegularExpression>
#include <algorithm>

namespace arizuko::manifest {
namespace {

Result<QStringList> allFolders(const QSqlDatabase &db)
{
    Result<QSqlQuery> rows =
        store::execute(db, QStringLiteral("SELECT folder FROM groups ORDER BY folder"));
    if (!rows)
        return rows.error();
    QStringList folders;
    while (rows->next())
        folders.append(rows->value(0).toString());
    return folders;
}

} // namespace

const QStringList &optionalResources()
{
    static const QStringList names = {QStringLiteral("acl"), QStringLiteral("acl_membership"),
                                      QStringLiteral("routes"), QStringLiteral("secrets")};
    return names;
}

const QStringList &wholesaleResources()
{
    static const QStringList names = {QStringLiteral("acl"), QStringLiteral("acl_membership"),
                                      QStringLiteral("routes")};
    return names;
}

QString seedTimestamp()
{
    return QStringLiteral("1970-01-01T00:00:00.000Z");
}

ProjectionBuilder::ProjectionBuilder(QSqlDatabase db, const ExportOptions &options,
                                     QStringList folders)
    : m_db(std::move(db))
    , m_roots(options.folders)
    , m_folders(std::move(folders))
{
    m_projection.options = options;
}

bool ProjectionBuilder::selected(const QString &folder) const
{
    if (m_roots.isEmpty())
        return true;
    return std::any_of(m_roots.cbegin(), m_roots.cend(),
                       [&](const QString &root) { return inSubtree(folder, root); });
}

bool ProjectionBuilder::includes(const QString &resource) const
{
    return m_projection.options.include.contains(resource);
}

void ProjectionBuilder::keep(const QString &resource, const Row &row)
{
    for (const FieldValue &value : row.values) {
        if (!yamlWritable(value.scalar.toUtf8())) {
            leaveOut(resource, QString::fromUtf8(row.sortKey(*findResource(resource))),
                     QStringLiteral(
                         "a value starting with a line break, which arizuko's YAML writer cannot "
                         "write back"));
            return;
        }
    }
    m_projection.document.resources[resource].append(row);
}

void ProjectionBuilder::leaveOut(const QString &resource, const QString &row, const QString &reason)
{
    m_projection.leftOut.append({resource, row, reason});
}

Result<QSqlQuery> ProjectionBuilder::chosenRows(const QString &resource, const QString &sql)
{
    m_projection.document.resources[resource];
    return store::execute(m_db, sql);
}

Result<void> ProjectionBuilder::projectGroups()
{
    const ResourceSpec &spec = *findResource(QStringLiteral("groups"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name,
        QStringLiteral("SELECT folder, name, created_at, config FROM groups ORDER BY folder"));
    if (!rows)
        return rows.error();
    QStringList named;
    while (rows->next()) {
        const QString folder = rows->value(0).toString();
        if (!selected(folder))
            continue;
        keep(spec.name,
             serverGroupRow(folder, rows->value(2).toString(), rows->value(3).toString()));
        if (!rows->value(1).toString().isEmpty())
            named.append(folder);
    }
    if (!named.isEmpty())
        warn(
            QStringLiteral("groups: arizuko has no display names; the names of %1 are not exported")
                .arg(named.join(QStringLiteral(", "))));
    return {};
}

Result<void> ProjectionBuilder::projectNetworkRules()
{
    const ResourceSpec &spec = *findResource(QStringLiteral("network_rules"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name,
        QStringLiteral("SELECT folder, target, kind, created_at, created_by, methods, path "
                       "FROM network_rules ORDER BY folder, target, kind, methods, path"));
    if (!rows)
        return rows.error();
    while (rows->next()) {
        const QString folder = rows->value(0).toString(), target = rows->value(1).toString();
        if (!selected(folder))
            continue;
        const QString key = folder + u'|' + target + u'|';
        if (!rows->value(6).toString().isEmpty()) {
            // Never as a host rule: that would allow more than the rule does.
            leaveOut(spec.name,
                     key + QStringLiteral(" (%1 %2)")
                               .arg(rows->value(5).toString(), rows->value(6).toString()),
                     QStringLiteral("a rule by method and path: arizuko's proxy decides by host "
                                    "only, and a host rule would allow every request"));
            continue;
        }
        if (rows->value(2).toString() != u"allow") {
            leaveOut(spec.name, key + QStringLiteral(" (deny)"),
                     QStringLiteral("a deny rule: arizuko has allow rules only"));
            continue;
        }
        if (policy::isIpLiteral(target)) {
            leaveOut(spec.name, key,
                     QStringLiteral("an IP literal: arizuko's name-based proxy skips IP entries"));
            continue;
        }
        if (!target.contains(u'.')) {
            leaveOut(spec.name, key,
                     QStringLiteral(
                         "a single-label host: here it allows only '%1', on arizuko it would allow "
                         "every host ending in '.%1'")
                         .arg(target));
            continue;
        }
        keep(spec.name,
             serverRuleRow(folder, target, rows->value(3).toString(), rows->value(4).toString()));
    }
    return {};
}

Result<void> ProjectionBuilder::projectSecrets()
{
    if (!includes(QStringLiteral("secrets")))
        return {};
    const ResourceSpec &spec = *findResource(QStringLiteral("secrets"));
    Result<QSqlQuery> rows = chosenRows(
        spec.name, QStringLiteral("SELECT scope_kind, scope_id, key, updated_at FROM secrets "
                                  "ORDER BY scope_kind, scope_id, key"));
    if (!rows)
        return rows.error();
    static const QRegularExpression serverKey(QStringLiteral("^[A-Z][A-Z0-9_]*$"));
    while (rows->next()) {
        const QString folder = rows->value(1).toString(), key = rows->value(2).toString();
        if (!selected(folder))
            continue;
        const QString id = rows->value(0).toString() + u'|' + folder + u'|' + key + u'|';
        if (folder.isEmpty()) {
            leaveOut(spec.name, id,
                     QStringLiteral("a base-folder secret: arizuko scopes secrets to a folder "
                                    "or a user"));
            continue;
        }
        if (!serverKey.match(key).hasMatch()) {
            leaveOut(spec.name, id,
                     QStringLiteral("arizuko secret names are upper case: [A-Z][A-Z0-9_]*"));
            continue;
        }
        Row row = emptyRow(spec);
        row.set(spec, QStringLiteral("scope_kind"), rows->value(0).toString());
        row.set(spec, QStringLiteral("scope_id"), folder);
        row.set(spec, QStringLiteral("key"), key);
        row.set(spec, QStringLiteral("created_at"), rows->value(3).toString());
        keep(spec.name, row);
    }
    warn(QStringLiteral(
        "secrets: names only, never values; apply does not write secrets, set each one on "
        "the server with `arizuko secret <inst> set <folder> KEY --value V`"));
    return {};
}

Result<Projection> projectWithin(const QSqlDatabase &db, const ExportOptions &options)
{
    for (const QString &resource : options.include)
        if (!optionalResources().contains(resource))
            return makeError(QStringLiteral("export.bad-resource"),
                             QStringLiteral("cannot include '%1'; choose from %2")
                                 .arg(resource, optionalResources().join(QStringLiteral(", "))));
    Result<QStringList> folders = allFolders(db);
    if (!folders)
        return folders.error();
    for (const QString &root : options.folders)
        if (!root.isEmpty() && !folders->contains(root))
            return makeError(QStringLiteral("export.no-folder"),
                             QStringLiteral("folder '%1' does not exist").arg(root));
    ProjectionBuilder builder(db, options, *folders);
    for (auto step : {&ProjectionBuilder::projectGroups, &ProjectionBuilder::projectNetworkRules,
                      &ProjectionBuilder::projectSecrets, &ProjectionBuilder::projectGrants,
                      &ProjectionBuilder::projectMemberships, &ProjectionBuilder::projectRoutes})
        if (Result<void> done = (builder.*step)(); !done)
            return done.error();
    return builder.take();
}

Result<Projection> project(store::Store &store, const ExportOptions &options)
{
    Result<Projection> projection = inReadTransaction(
        store, [&options](const QSqlDatabase &db) { return projectWithin(db, options); });
    if (!projection)
        return projection.error();
    if (options.unrepresentable == Unrepresentable::Refuse && !projection->leftOut.isEmpty()) {
        QStringList lines;
        for (const LeftOut &row : projection->leftOut)
            lines.append(QStringLiteral("  %1 %2: %3").arg(row.resource, row.row, row.reason));
        return makeError(
            QStringLiteral("export.unrepresentable"),
            QStringLiteral("refusing to export: %1 row(s) have no arizuko equivalent:\n%2")
                .arg(QString::number(lines.size()), lines.join(u'\n')));
    }
    return projection;
}

QByteArray manifestText(const Projection &projection)
{
    return canonicalDocument(projection.document);
}

} // namespace arizuko::manifest
