// What a manifest may put in the desktop store: the desktop's own rules for
// folders, hosts, routes and grants, applied to every row before anything is
// planned.

#include "export/import_steps.h"
#include "export/manifest_place.h"
#include "export/server_names.h"
#include "policy/action.h"
#include "policy/grants.h"
#include "policy/host_name.h"
#include "policy/route.h"
#include "folders/folder_names.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace arizuko::manifest {
namespace {

struct RowCheck
{
    const ResourceSpec &spec;
    Row &row;
    Place place;

    QString text(const QString &field) const { return row.text(spec, field); }
    void set(const QString &field, const QString &value) { row.set(spec, field, value); }
    Error error(const QString &field, const QString &problem) const
    {
        return place.at(field).error(problem);
    }
    Result<void> folder(const QString &field, const QString &value, bool baseAllowed) const
    {
        if (baseAllowed && value.isEmpty())
            return {};
        if (Result<void> valid = folders::validateFolderPath(value); !valid)
            return error(field, valid.error().message);
        return {};
    }
    Result<void> check(const QString &field, const Result<void> &valid) const
    {
        if (!valid)
            return error(field, valid.error().message);
        return {};
    }
    // Non-empty fields the desktop has no column for.
    void noteUnmodelled(const QStringList &fields, QStringList &ignored) const
    {
        for (const QString &field : fields) {
            const qsizetype index = spec.fieldIndex(field);
            if (!row.values.at(index).isZero(spec.fields.at(index).type))
                ignored.append(u"%1 row %2 (line %3): field %4 is not kept (the desktop has no "
                               u"such setting)"_s.arg(spec.name, QString::number(place.row + 1),
                                                      QString::number(place.line), field));
        }
    }
};

Result<void> principal(const RowCheck &check, const QString &field)
{
    const QString server = check.text(field);
    const QString desktop = desktopPrincipal(server);
    if (server.startsWith(u"folder:"_s))
        if (Result<void> valid = check.folder(field, desktop, false); !valid)
            return valid;
    return check.check(field, policy::validatePrincipal(desktop));
}

// nullopt: keep the row; a string: leave it out for this reason.
using Verdict = Result<std::optional<QString>>;

Verdict checkGroup(RowCheck &check, const QSet<QString> &known, QStringList &ignored)
{
    const QString folder = check.text(u"folder"_s);
    if (Result<void> valid = check.folder(u"folder"_s, folder, false); !valid)
        return valid.error();
    const QString parent = folders::parentFolder(folder);
    if (!parent.isEmpty() && !known.contains(parent))
        return check.error(u"folder"_s, u"its parent folder '%1' is neither in the store nor in "
                                        u"this manifest"_s.arg(parent));
    const QString config = check.text(u"config"_s);
    if (!config.isEmpty() && !QJsonDocument::fromJson(config.toUtf8()).isObject())
        return check.error(u"config"_s, u"not a JSON object"_s);
    const QString product = check.text(u"product"_s);
    if (!product.isEmpty() && product != u"assistant")
        ignored.append(u"groups %1: product '%2' is not kept"_s.arg(folder, product));
    check.noteUnmodelled({u"container_config"_s, u"cost_cap_cents_per_day"_s}, ignored);
    return std::optional<QString>();
}

Verdict checkRule(RowCheck &check, const QSet<QString> &known)
{
    const QString folder = check.text(u"folder"_s);
    if (Result<void> valid = check.folder(u"folder"_s, folder, true); !valid)
        return valid.error();
    if (!folder.isEmpty() && !known.contains(folder))
        return check.error(u"folder"_s, u"folder '%1' has no groups row here or in the store "
                                        u"(arizuko's missing-group rule)"_s.arg(folder));
    const Result<QString> target = policy::normalizeRuleTarget(check.text(u"target"_s));
    if (!target)
        return check.error(u"target"_s, target.error().message);
    check.set(u"target"_s, *target);
    return std::optional<QString>();
}

Verdict checkRoute(RowCheck &check, QStringList &ignored)
{
    policy::Route route;
    route.match = check.text(u"match"_s);
    route.target = check.text(u"target"_s);
    if (const auto parsed = policy::parseRouteMatch(route.match); !parsed)
        return check.error(u"match"_s, parsed.error().message);
    const QString folder = route.target.section(u'#', 0, 0);
    if (Result<void> valid = check.folder(u"target"_s, folder, false); !valid)
        return valid.error();
    if (const auto split = policy::splitRouteTarget(route); !split)
        return std::optional<QString>(
            u"target '%1': the desktop routes to a folder or folder#observe only"_s.arg(
                route.target));
    check.noteUnmodelled({u"observe_window_messages"_s, u"observe_window_chars"_s}, ignored);
    return std::optional<QString>();
}

Verdict checkGrant(RowCheck &check)
{
    if (Result<void> valid = principal(check, u"principal"_s); !valid)
        return valid.error();
    if (Result<void> valid =
            check.check(u"action"_s, policy::validateAction(check.text(u"action"_s)));
        !valid)
        return valid.error();
    if (Result<void> valid = check.check(u"scope"_s, policy::validateScope(check.text(u"scope"_s)));
        !valid)
        return valid.error();
    const QString effect = check.text(u"effect"_s);
    if (effect.isEmpty())
        check.set(u"effect"_s, u"allow"_s); // arizuko's insert default
    else if (effect != u"allow" && effect != u"deny")
        return check.error(u"effect"_s, u"'%1' is neither allow nor deny"_s.arg(effect));
    const auto params = desktopParams(check.text(u"params"_s));
    if (!params)
        return check.error(u"params"_s, params.error().message);
    check.set(u"params"_s, serverParams(*params));
    if (!check.text(u"predicate"_s).isEmpty())
        return std::optional<QString>(
            u"a claim predicate: this host issues no claims, so it cannot hold one"_s);
    return std::optional<QString>();
}

Verdict checkMembership(RowCheck &check)
{
    for (const QString &field : {u"child"_s, u"parent"_s})
        if (Result<void> valid = principal(check, field); !valid)
            return valid.error();
    if (check.text(u"child"_s) == check.text(u"parent"_s))
        return check.error(u"parent"_s, u"a principal cannot be a member of itself"_s);
    for (const QString &field : {u"child"_s, u"parent"_s})
        if (policy::isWildcardPrincipal(check.text(field)))
            return check.error(field, u"memberships cannot name a wildcard"_s);
    return std::optional<QString>();
}

} // namespace

Result<void> validateForDesktop(Document &document, const QSet<QString> &storeFolders,
                                ImportPlan &plan)
{
    QSet<QString> known = storeFolders;
    if (document.resources.count(u"groups"_s)) {
        const ResourceSpec &groups = *findResource(u"groups"_s);
        for (const Row &row : document.resources[u"groups"_s])
            known.insert(row.text(groups, u"folder"_s));
    }
    for (auto &[name, rows] : document.resources) {
        const ResourceSpec &spec = *findResource(name);
        if (!desktopResources().contains(name)) {
            plan.ignored.append(u"%1: %2 row(s) not imported (the desktop does not model %1)"_s.arg(
                name, QString::number(rows.size())));
            continue;
        }
        if (name == u"secrets") {
            plan.ignored.append(
                u"secrets: %1 name(s) not imported (values never travel in a "
                u"manifest; set them with arizukoctl secret set)"_s.arg(rows.size()));
            continue;
        }
        QList<Row> kept;
        QSet<QByteArray> keys;
        for (qsizetype i = 0; i < rows.size(); ++i) {
            RowCheck check{spec, rows[i], Place{document.index, name, i, rows[i].line, {}}};
            Verdict verdict = name == u"groups"          ? checkGroup(check, known, plan.ignored)
                              : name == u"network_rules" ? checkRule(check, known)
                              : name == u"routes"        ? checkRoute(check, plan.ignored)
                              : name == u"acl"           ? checkGrant(check)
                                                         : checkMembership(check);
            if (!verdict)
                return verdict.error();
            if (*verdict) {
                plan.ignored.append(u"%1 row %2 (line %3) not imported: %4"_s.arg(
                    name, QString::number(i + 1), QString::number(rows[i].line), **verdict));
                continue;
            }
            const QByteArray key = rows[i].sortKey(spec);
            if (keys.contains(key))
                return check.place.error(
                    u"the same row (%1) appears twice"_s.arg(QString::fromUtf8(key)));
            keys.insert(key);
            kept.append(rows[i]);
        }
        rows = kept;
    }
    return {};
}

} // namespace arizuko::manifest
