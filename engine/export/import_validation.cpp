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
                ignored.append(
                    QStringLiteral("%1 row %2 (line %3): field %4 is not kept (the desktop has no "
                                   "such setting)")
                        .arg(spec.name, QString::number(place.row + 1), QString::number(place.line),
                             field));
        }
    }
};

Result<void> principal(const RowCheck &check, const QString &field)
{
    const QString server = check.text(field);
    const QString desktop = desktopPrincipal(server);
    if (server.startsWith(QStringLiteral("folder:")))
        if (Result<void> valid = check.folder(field, desktop, false); !valid)
            return valid;
    return check.check(field, policy::validatePrincipal(desktop));
}

// nullopt: keep the row; a string: leave it out for this reason.
using Verdict = Result<std::optional<QString>>;

Verdict checkGroup(RowCheck &check, const QSet<QString> &known, QStringList &ignored)
{
    const QString folder = check.text(QStringLiteral("folder"));
    if (Result<void> valid = check.folder(QStringLiteral("folder"), folder, false); !valid)
        return valid.error();
    const QString parent = folders::parentFolder(folder);
    if (!parent.isEmpty() && !known.contains(parent))
        return check.error(QStringLiteral("folder"),
                           QStringLiteral("its parent folder '%1' is neither in the store nor in "
                                          "this manifest")
                               .arg(parent));
    const QString config = check.text(QStringLiteral("config"));
    if (!config.isEmpty() && !QJsonDocument::fromJson(config.toUtf8()).isObject())
        return check.error(QStringLiteral("config"), QStringLiteral("not a JSON object"));
    const QString product = check.text(QStringLiteral("product"));
    if (!product.isEmpty() && product != u"assistant")
        ignored.append(QStringLiteral("groups %1: product '%2' is not kept").arg(folder, product));
    check.noteUnmodelled(
        {QStringLiteral("container_config"), QStringLiteral("cost_cap_cents_per_day")}, ignored);
    return std::optional<QString>();
}

Verdict checkRule(RowCheck &check, const QSet<QString> &known)
{
    const QString folder = check.text(QStringLiteral("folder"));
    if (Result<void> valid = check.folder(QStringLiteral("folder"), folder, true); !valid)
        return valid.error();
    if (!folder.isEmpty() && !known.contains(folder))
        return check.error(QStringLiteral("folder"),
                           QStringLiteral("folder '%1' has no groups row here or in the store "
                                          "(arizuko's missing-group rule)")
                               .arg(folder));
    const Result<QString> target =
        policy::normalizeRuleTarget(check.text(QStringLiteral("target")));
    if (!target)
        return check.error(QStringLiteral("target"), target.error().message);
    check.set(QStringLiteral("target"), *target);
    return std::optional<QString>();
}

Verdict checkRoute(RowCheck &check, QStringList &ignored)
{
    policy::Route route;
    route.match = check.text(QStringLiteral("match"));
    route.target = check.text(QStringLiteral("target"));
    if (const auto parsed = policy::parseRouteMatch(route.match); !parsed)
        return check.error(QStringLiteral("match"), parsed.error().message);
    const QString folder = route.target.section(u'#', 0, 0);
    if (Result<void> valid = check.folder(QStringLiteral("target"), folder, false); !valid)
        return valid.error();
    if (const auto split = policy::splitRouteTarget(route); !split)
        return std::optional<QString>(
            QStringLiteral("target '%1': the desktop routes to a folder or folder#observe only")
                .arg(route.target));
    check.noteUnmodelled(
        {QStringLiteral("observe_window_messages"), QStringLiteral("observe_window_chars")},
        ignored);
    return std::optional<QString>();
}

Verdict checkGrant(RowCheck &check)
{
    if (Result<void> valid = principal(check, QStringLiteral("principal")); !valid)
        return valid.error();
    if (Result<void> valid = check.check(
            QStringLiteral("action"), policy::validateAction(check.text(QStringLiteral("action"))));
        !valid)
        return valid.error();
    if (Result<void> valid = check.check(
            QStringLiteral("scope"), policy::validateScope(check.text(QStringLiteral("scope"))));
        !valid)
        return valid.error();
    const QString effect = check.text(QStringLiteral("effect"));
    if (effect.isEmpty())
        check.set(QStringLiteral("effect"), QStringLiteral("allow")); // arizuko's insert default
    else if (effect != u"allow" && effect != u"deny")
        return check.error(QStringLiteral("effect"),
                           QStringLiteral("'%1' is neither allow nor deny").arg(effect));
    const auto params = desktopParams(check.text(QStringLiteral("params")));
    if (!params)
        return check.error(QStringLiteral("params"), params.error().message);
    check.set(QStringLiteral("params"), serverParams(*params));
    if (!check.text(QStringLiteral("predicate")).isEmpty())
        return std::optional<QString>(
            QStringLiteral("a claim predicate: this host issues no claims, so it cannot hold one"));
    return std::optional<QString>();
}

Verdict checkMembership(RowCheck &check)
{
    for (const QString &field : {QStringLiteral("child"), QStringLiteral("parent")})
        if (Result<void> valid = principal(check, field); !valid)
            return valid.error();
    if (check.text(QStringLiteral("child")) == check.text(QStringLiteral("parent")))
        return check.error(QStringLiteral("parent"),
                           QStringLiteral("a principal cannot be a member of itself"));
    for (const QString &field : {QStringLiteral("child"), QStringLiteral("parent")})
        if (policy::isWildcardPrincipal(check.text(field)))
            return check.error(field, QStringLiteral("memberships cannot name a wildcard"));
    return std::optional<QString>();
}

} // namespace

Result<void> validateForDesktop(Document &document, const QSet<QString> &storeFolders,
                                ImportPlan &plan)
{
    QSet<QString> known = storeFolders;
    if (document.resources.count(QStringLiteral("groups"))) {
        const ResourceSpec &groups = *findResource(QStringLiteral("groups"));
        for (const Row &row : document.resources[QStringLiteral("groups")])
            known.insert(row.text(groups, QStringLiteral("folder")));
    }
    for (auto &[name, rows] : document.resources) {
        const ResourceSpec &spec = *findResource(name);
        if (!desktopResources().contains(name)) {
            plan.ignored.append(
                QStringLiteral("%1: %2 row(s) not imported (the desktop does not model %1)")
                    .arg(name, QString::number(rows.size())));
            continue;
        }
        if (name == u"secrets") {
            plan.ignored.append(
                QStringLiteral("secrets: %1 name(s) not imported (values never travel in a "
                               "manifest; set them with arizukoctl secret set)")
                    .arg(rows.size()));
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
                plan.ignored.append(QStringLiteral("%1 row %2 (line %3) not imported: %4")
                                        .arg(name, QString::number(i + 1),
                                             QString::number(rows[i].line), **verdict));
                continue;
            }
            const QByteArray key = rows[i].sortKey(spec);
            if (keys.contains(key))
                return check.place.error(
                    QStringLiteral("the same row (%1) appears twice").arg(QString::fromUtf8(key)));
            keys.insert(key);
            kept.append(rows[i]);
        }
        rows = kept;
    }
    return {};
}

} // namespace arizuko::manifest
