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

using namespace Qt::StringLiterals;

namespace arizuko::manifest {
namespace {

Result<QStringList> allFolders(const QSqlDatabase &db)
{
    Result<QSqlQuery> rows = store::execute(db, u"SELECT folder FROM groups ORDER BY folder"_s);
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
    static const QStringList names = {u"acl"_s, u"acl_membership"_s, u"routes"_s, u"secrets"_s};
    return names;
}

const QStringList &wholesaleResources()
{
    static const QStringList names = {u"acl"_s, u"acl_membership"_s, u"routes"_s};
    return names;
}

QString seedTimestamp()
{
    return u"1970-01-01T00:00:00.000Z"_s;
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
                     u"a value starting with a line break, which arizuko's YAML writer cannot "
                     u"write back"_s);
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
    const ResourceSpec &spec = *findResource(u"groups"_s);
    Result<QSqlQuery> rows = chosenRows(
        spec.name, u"SELECT folder, name, created_at, config FROM groups ORDER BY folder"_s);
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
        warn(u"groups: arizuko has no display names; the names of %1 are not exported"_s.arg(
            named.join(u", "_s)));
    return {};
}

Result<void> ProjectionBuilder::projectNetworkRules()
{
    const ResourceSpec &spec = *findResource(u"network_rules"_s);
    Result<QSqlQuery> rows = chosenRows(
        spec.name, u"SELECT folder, target, kind, created_at, created_by FROM network_rules "
                   u"ORDER BY folder, target, kind"_s);
    if (!rows)
        return rows.error();
    while (rows->next()) {
        const QString folder = rows->value(0).toString(), target = rows->value(1).toString();
        if (!selected(folder))
            continue;
        const QString key = folder + u'|' + target + u'|';
        if (rows->value(2).toString() != u"allow") {
            leaveOut(spec.name, key + u" (deny)"_s, u"a deny rule: arizuko has allow rules only"_s);
            continue;
        }
        if (policy::isIpLiteral(target)) {
            leaveOut(spec.name, key,
                     u"an IP literal: arizuko's name-based proxy skips IP entries"_s);
            continue;
        }
        if (!target.contains(u'.')) {
            leaveOut(spec.name, key,
                     u"a single-label host: here it allows only '%1', on arizuko it would allow "
                     u"every host ending in '.%1'"_s.arg(target));
            continue;
        }
        keep(spec.name,
             serverRuleRow(folder, target, rows->value(3).toString(), rows->value(4).toString()));
    }
    return {};
}

Result<void> ProjectionBuilder::projectSecrets()
{
    if (!includes(u"secrets"_s))
        return {};
    const ResourceSpec &spec = *findResource(u"secrets"_s);
    Result<QSqlQuery> rows =
        chosenRows(spec.name, u"SELECT scope_kind, scope_id, key, updated_at FROM secrets "
                              u"ORDER BY scope_kind, scope_id, key"_s);
    if (!rows)
        return rows.error();
    static const QRegularExpression serverKey(u"^[A-Z][A-Z0-9_]*$"_s);
    while (rows->next()) {
        const QString folder = rows->value(1).toString(), key = rows->value(2).toString();
        if (!selected(folder))
            continue;
        const QString id = rows->value(0).toString() + u'|' + folder + u'|' + key + u'|';
        if (folder.isEmpty()) {
            leaveOut(spec.name, id,
                     u"a base-folder secret: arizuko scopes secrets to a folder "
                     u"or a user"_s);
            continue;
        }
        if (!serverKey.match(key).hasMatch()) {
            leaveOut(spec.name, id, u"arizuko secret names are upper case: [A-Z][A-Z0-9_]*"_s);
            continue;
        }
        Row row = emptyRow(spec);
        row.set(spec, u"scope_kind"_s, rows->value(0).toString());
        row.set(spec, u"scope_id"_s, folder);
        row.set(spec, u"key"_s, key);
        row.set(spec, u"created_at"_s, rows->value(3).toString());
        keep(spec.name, row);
    }
    warn(u"secrets: names only, never values; apply does not write secrets, set each one on "
         u"the server with `arizuko secret <inst> set <folder> KEY --value V`"_s);
    return {};
}

Result<Projection> projectWithin(const QSqlDatabase &db, const ExportOptions &options)
{
    for (const QString &resource : options.include)
        if (!optionalResources().contains(resource))
            return makeError(u"export.bad-resource"_s,
                             u"cannot include '%1'; choose from %2"_s.arg(
                                 resource, optionalResources().join(u", "_s)));
    Result<QStringList> folders = allFolders(db);
    if (!folders)
        return folders.error();
    for (const QString &root : options.folders)
        if (!root.isEmpty() && !folders->contains(root))
            return makeError(u"export.no-folder"_s, u"folder '%1' does not exist"_s.arg(root));
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
            lines.append(u"  %1 %2: %3"_s.arg(row.resource, row.row, row.reason));
        return makeError(u"export.unrepresentable"_s,
                         u"refusing to export: %1 row(s) have no arizuko equivalent:\n%2"_s.arg(
                             QString::number(lines.size()), lines.join(u'\n')));
    }
    return projection;
}

QByteArray manifestText(const Projection &projection)
{
    return canonicalDocument(projection.document);
}

} // namespace arizuko::manifest
