// Writing a plan: removals first, then folders parents-first, then the other
// rows, all on the caller's transaction. Rows are matched to store rows by
// the same arizuko keys the plan was made with (server_rows.h).

#include "export/import_steps.h"
#include "export/server_names.h"
#include "export/server_rows.h"
#include "policy/grant.h"
#include "store/query.h"
#include "store/timestamp.h"

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
        db,
        QStringLiteral(
            "SELECT id, principal, action, scope, effect, params FROM acl WHERE predicate = ''"));
    if (!rows)
        return rows.error();
    const ResourceSpec &spec = *findResource(QStringLiteral("acl"));
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
        const Result<policy::GrantParams> params =
            desktopParams(row.text(spec, QStringLiteral("params")));
        if (!params)
            return params.error();
        return run(
            db,
            QStringLiteral("INSERT INTO acl (principal, action, scope, effect, params, predicate, "
                           "granted_by, granted_at) VALUES (?, ?, ?, ?, ?, '', ?, ?)"),
            {desktopPrincipal(row.text(spec, QStringLiteral("principal"))),
             row.text(spec, QStringLiteral("action")), row.text(spec, QStringLiteral("scope")),
             row.text(spec, QStringLiteral("effect")), policy::paramsToJson(*params),
             row.text(spec, QStringLiteral("granted_by")),
             stampOrNow(row.text(spec, QStringLiteral("granted_at")))});
    }
    for (const qint64 id : ids.values(planned.key.toUtf8())) {
        const Result<void> done =
            planned.kind == Kind::Remove
                ? run(db, QStringLiteral("DELETE FROM acl WHERE id = ?"), {id})
                : run(db, QStringLiteral("UPDATE acl SET granted_by = ? WHERE id = ?"),
                      {row.text(spec, QStringLiteral("granted_by")), id});
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
    // A folder the store has is changed in place, never replaced: its row
    // keeps its home_id, so the folder keeps its home and the home's history
    // (engine/history). A new folder gets a new id, so no history.
    if (resource == u"groups")
        return planned.kind == Kind::Add
                   ? run(db,
                         QStringLiteral("INSERT INTO groups (folder, name, created_at, config) "
                                        "VALUES (?, '', ?, ?)"),
                         {text("folder"), stampOrNow(text("added_at")),
                          text("config").isEmpty() ? QStringLiteral("{}") : text("config")})
                   : run(db, QStringLiteral("UPDATE groups SET config = ? WHERE folder = ?"),
                         {text("config").isEmpty() ? QStringLiteral("{}") : text("config"),
                          text("folder")});
    if (resource == u"network_rules") {
        switch (planned.kind) {
        case Kind::Add:
            return run(
                db,
                QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at, "
                               "created_by) VALUES (?, ?, 'allow', ?, ?)"),
                {text("folder"), text("target"), stampOrNow(text("created_at")),
                 text("created_by")});
        case Kind::Change:
            return run(
                db,
                QStringLiteral("UPDATE network_rules SET created_by = ? WHERE folder = ? AND "
                               "target = ? AND kind = 'allow' AND path = ''"),
                {text("created_by"), text("folder"), text("target")});
        case Kind::Remove:
            return run(
                db,
                QStringLiteral("DELETE FROM network_rules WHERE folder = ? AND target = ? AND "
                               "kind = 'allow' AND path = ''"),
                {text("folder"), text("target")});
        }
    }
    if (resource == u"routes")
        return planned.kind == Kind::Add
                   ? run(db,
                         QStringLiteral("INSERT INTO routes (seq, match, target) VALUES (?, ?, ?)"),
                         {text("seq").toLongLong(), text("match"), text("target")})
                   : run(db,
                         QStringLiteral(
                             "DELETE FROM routes WHERE seq = ? AND match = ? AND target = ?"),
                         {text("seq").toLongLong(), text("match"), text("target")});
    // acl_membership; OR IGNORE: adding a folder above already made its
    // role:member edge.
    return planned.kind == Kind::Add
               ? run(db,
                     QStringLiteral(
                         "INSERT OR IGNORE INTO acl_membership (child, parent) VALUES (?, ?)"),
                     {desktopPrincipal(text("child")), desktopPrincipal(text("parent"))})
               : run(db,
                     QStringLiteral("DELETE FROM acl_membership WHERE child = ? AND parent = ?"),
                     {desktopPrincipal(text("child")), desktopPrincipal(text("parent"))});
}

// A listed acl_membership is the whole table: edges the folder trigger made
// for new folders go unless the manifest lists them.
Result<void> reconcileMemberships(const QSqlDatabase &db, const Document &document)
{
    const auto listed = document.resources.find(QStringLiteral("acl_membership"));
    if (listed == document.resources.end())
        return {};
    const ResourceSpec &spec = *findResource(QStringLiteral("acl_membership"));
    QSet<QByteArray> wanted;
    for (const Row &row : listed->second)
        wanted.insert(row.sortKey(spec));
    Result<QSqlQuery> rows =
        store::execute(db, QStringLiteral("SELECT child, parent FROM acl_membership"));
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
                                    QStringLiteral("DELETE FROM acl_membership WHERE child = ? AND "
                                                   "parent = ?"),
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
