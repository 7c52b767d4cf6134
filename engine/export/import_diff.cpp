// The plan: the manifest's rows against the store's own projection, scoped
// the way arizuko's apply scopes each resource (reference §6).

#include "export/import_steps.h"
#include "export/projection_builder.h"

#include <map>

namespace arizuko::manifest {
namespace {

// The fields a change can be made of; the rest are keys or server stamps.
QStringList comparedFields(const QString &resource)
{
    if (resource == u"groups")
        return {QStringLiteral("config")};
    if (resource == u"network_rules")
        return {QStringLiteral("created_by")};
    if (resource == u"acl")
        return {QStringLiteral("granted_by")};
    return {};
}

// Which of the store's rows the manifest's rows replace.
bool inScope(const ResourceSpec &spec, const Row &storeRow, const QSet<QString> &mentioned)
{
    if (spec.scopeField.isEmpty())
        return true; // acl, acl_membership, routes: the whole table
    return mentioned.contains(storeRow.text(spec, spec.scopeField));
}

} // namespace

Result<ImportPlan> diffWithStore(const QSqlDatabase &db, const Document &document, ImportPlan plan)
{
    ExportOptions everything;
    everything.include = optionalResources();
    everything.addServerSeeds = false;
    Result<Projection> current = projectWithin(db, everything);
    if (!current)
        return current.error();
    for (const auto &[name, rows] : document.resources) {
        if (!desktopResources().contains(name) || name == u"secrets")
            continue;
        const ResourceSpec &spec = *findResource(name);
        QSet<QString> mentioned;
        std::map<QByteArray, Row> wanted;
        for (const Row &row : rows) {
            if (!spec.scopeField.isEmpty())
                mentioned.insert(row.text(spec, spec.scopeField));
            wanted.emplace(row.sortKey(spec), row);
        }
        std::map<QByteArray, Row> held;
        for (const Row &row : current->document.resources[name])
            if (inScope(spec, row, mentioned))
                held.emplace(row.sortKey(spec), row);
        for (const auto &[key, row] : wanted) {
            const auto found = held.find(key);
            PlannedRow planned{PlannedRow::Kind::Add, name, QString::fromUtf8(key), row};
            if (found != held.end()) {
                const QStringList fields = comparedFields(name);
                const bool same =
                    std::all_of(fields.cbegin(), fields.cend(), [&](const QString &f) {
                        return row.text(spec, f) == found->second.text(spec, f);
                    });
                if (same)
                    continue;
                planned.kind = PlannedRow::Kind::Change;
            }
            plan.rows.append(planned);
        }
        for (const auto &[key, row] : held)
            if (!wanted.count(key))
                plan.rows.append({PlannedRow::Kind::Remove, name, QString::fromUtf8(key), row});
    }
    qsizetype kept = 0;
    for (const LeftOut &row : current->leftOut)
        kept += document.resources.count(row.resource) ? 1 : 0;
    if (kept > 0)
        plan.notes.append(
            QStringLiteral("%1 store row(s) that a manifest cannot carry (deny rules, wildcard "
                           "principals, ...) are kept as they are")
                .arg(kept));
    return plan;
}

} // namespace arizuko::manifest
