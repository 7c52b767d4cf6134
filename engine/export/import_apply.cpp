// Writing a plan: removals first, then folders parents-first, then the other
// rows, all on the caller's transaction. Rows are matched to store rows by
// the same arizuko keys the plan was made with (server_rows.h).

#include "export/import_steps.h"
#include "export/server_names.h"
#include "export/server_rows.h"
#include "policy/grant.h"
#include "store/query.h"
#include "store/timestamp.h"

using namespace Qt::StringLiterals;

namespace arizuko::manifest {
namespace {

using Kind = PlannedRow::Kind;

Result<void> run(const QSqlDatabase &db, const QString &sql, QVariantList values)
{
    // A field left out of the manifest is a null QString, which would bind
    // as SQL NULL; the store's text columns hold '' for "none".
    for (QVariant &value : values)
        if (value.typeId() == QMetaType::QString && value.toString().isNull())
            value = QStringLiteral("");
    if (Result<QSqlQuery> done = store::execute(db, sql, values); !done)
        return done.error();
    return {};
}

QString stampOrNow(const QString &stamp)
{
    return stamp.isEmpty() ? store::nowTimestamp() : stamp;
}

// Ids of the store's acl rows by arizuko key.
Result<QMultiMap<QByteArray, qint64>> grantIds(const QSqlDatabase &db)
{
    Result<QSqlQuery> rows = store::execute(
        db, u"SELECT id, principal, action, scope, effect, params FROM acl WHERE predicate = ''"_s);
    if (!rows)
        return rows.error();
    const ResourceSpec &spec = *findResource(u"acl"_s);
    QMultiMap<QByteArray, qint64> ids;
    while (rows->next()) {
        const Result<policy::GrantParams> params =
            policy::paramsFromJson(rows->value(5).toString());
        if (!params)
            continue; // never exported, so never planned
        const Row row =
            serverGrantRow(rows->value(1).toString(), rows->value(2).toString(),
                           rows->value(3).toString(), rows->value(4).toString(), *params, {}, {});
        ids.insert(row.sortKey(spec), rows->value(0).toLongLong());
    }
    return ids;
}

Result<void> writeGrant(const QSqlDatabase &db, const PlannedRow &planned,
                        const QMultiMap<QByteArray, qint64> &ids)
{
    const ResourceSpec &spec = *findResource(planned.resource);
    const Row &row = planned.row;
    if (planned.kind == Kind::Add) {
        const Result<policy::GrantParams> params = desktopParams(row.text(spec, u"params"_s));
        if (!params)
            return params.error();
        return run(db,
                   u"INSERT INTO acl (principal, action, scope, effect, params, predicate, "
                   u"granted_by, granted_at) VALUES (?, ?, ?, ?, ?, '', ?, ?)"_s,
                   {desktopPrincipal(row.text(spec, u"principal"_s)), row.text(spec, u"action"_s),
                    row.text(spec, u"scope"_s), row.text(spec, u"effect"_s),
                    policy::paramsToJson(*params), row.text(spec, u"granted_by"_s),
                    stampOrNow(row.text(spec, u"granted_at"_s))});
    }
    for (const qint64 id : ids.values(planned.key.toUtf8())) {
        const Result<void> done = planned.kind == Kind::Remove
                                      ? run(db, u"DELETE FROM acl WHERE id = ?"_s, {id})
                                      : run(db, u"UPDATE acl SET granted_by = ? WHERE id = ?"_s,
                                            {row.text(spec, u"granted_by"_s), id});
        if (!done)
            return done;
    }
    return {};
}

Result<void> writeRow(const QSqlDatabase &db, const PlannedRow &planned)
{
    const ResourceSpec &spec = *findResource(planned.resource);
    const auto text = [&](const char *field) {
        return planned.row.text(spec, QString::fromLatin1(field));
    };
    const QString &resource = planned.resource;
    if (resource == u"groups")
        return planned.kind == Kind::Add
                   ? run(db,
                         u"INSERT INTO groups (folder, name, created_at, config) "
                         u"VALUES (?, '', ?, ?)"_s,
                         {text("folder"), stampOrNow(text("added_at")),
                          text("config").isEmpty() ? u"{}"_s : text("config")})
                   : run(db, u"UPDATE groups SET config = ? WHERE folder = ?"_s,
                         {text("config").isEmpty() ? u"{}"_s : text("config"), text("folder")});
    if (resource == u"network_rules") {
        switch (planned.kind) {
        case Kind::Add:
            return run(db,
                       u"INSERT INTO network_rules (folder, target, kind, created_at, "
                       u"created_by) VALUES (?, ?, 'allow', ?, ?)"_s,
                       {text("folder"), text("target"), stampOrNow(text("created_at")),
                        text("created_by")});
        case Kind::Change:
            return run(db,
                       u"UPDATE network_rules SET created_by = ? WHERE folder = ? AND "
                       u"target = ? AND kind = 'allow'"_s,
                       {text("created_by"), text("folder"), text("target")});
        case Kind::Remove:
            return run(db,
                       u"DELETE FROM network_rules WHERE folder = ? AND target = ? AND "
                       u"kind = 'allow'"_s,
                       {text("folder"), text("target")});
        }
    }
    if (resource == u"routes")
        return planned.kind == Kind::Add
                   ? run(db, u"INSERT INTO routes (seq, match, target) VALUES (?, ?, ?)"_s,
                         {text("seq").toLongLong(), text("match"), text("target")})
                   : run(db, u"DELETE FROM routes WHERE seq = ? AND match = ? AND target = ?"_s,
                         {text("seq").toLongLong(), text("match"), text("target")});
    // acl_membership; OR IGNORE: adding a folder above already made its
    // role:member edge.
    return planned.kind == Kind::Add
               ? run(db, u"INSERT OR IGNORE INTO acl_membership (child, parent) VALUES (?, ?)"_s,
                     {desktopPrincipal(text("child")), desktopPrincipal(text("parent"))})
               : run(db, u"DELETE FROM acl_membership WHERE child = ? AND parent = ?"_s,
                     {desktopPrincipal(text("child")), desktopPrincipal(text("parent"))});
}

// A listed acl_membership is the whole table: edges the folder trigger made
// for new folders go unless the manifest lists them.
Result<void> reconcileMemberships(const QSqlDatabase &db, const Document &document)
{
    const auto listed = document.resources.find(u"acl_membership"_s);
    if (listed == document.resources.end())
        return {};
    const ResourceSpec &spec = *findResource(u"acl_membership"_s);
    QSet<QByteArray> wanted;
    for (const Row &row : listed->second)
        wanted.insert(row.sortKey(spec));
    Result<QSqlQuery> rows = store::execute(db, u"SELECT child, parent FROM acl_membership"_s);
    if (!rows)
        return rows.error();
    QList<std::pair<QString, QString>> extra;
    while (rows->next()) {
        const QString child = rows->value(0).toString(), parent = rows->value(1).toString();
        if (!wanted.contains(serverMembershipRow(child, parent, {}).sortKey(spec)))
            extra.append({child, parent});
    }
    for (const auto &[child, parent] : extra)
        if (Result<void> done = run(db,
                                    u"DELETE FROM acl_membership WHERE child = ? AND "
                                    u"parent = ?"_s,
                                    {child, parent});
            !done)
            return done;
    return {};
}

int depth(const PlannedRow &row)
{
    return int(row.key.count(u'/'));
}

} // namespace

Result<void> writePlan(const QSqlDatabase &db, const Document &document, const ImportPlan &plan)
{
    Result<QMultiMap<QByteArray, qint64>> ids = grantIds(db);
    if (!ids)
        return ids.error();
    QList<PlannedRow> ordered = plan.rows;
    // Removals first (a replaced row frees its key), then shallower folders
    // before their subfolders.
    std::stable_sort(ordered.begin(), ordered.end(), [](const PlannedRow &l, const PlannedRow &r) {
        const bool lr = l.kind == Kind::Remove, rr = r.kind == Kind::Remove;
        if (lr != rr)
            return lr;
        const bool lg = l.resource == u"groups", rg = r.resource == u"groups";
        if (lg != rg)
            return lg;
        return lg && depth(l) < depth(r);
    });
    for (const PlannedRow &row : ordered) {
        const Result<void> done =
            row.resource == u"acl" ? writeGrant(db, row, *ids) : writeRow(db, row);
        if (!done)
            return done;
    }
    return reconcileMemberships(db, document);
}

} // namespace arizuko::manifest
