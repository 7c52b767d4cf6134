#include "policy/policy_cache.h"

#include "store/query.h"

#include <QVariant>

namespace arizuko::policy {
namespace {

Result<void> loadGrants(QSqlDatabase db, PolicySnapshot &snapshot)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(
            QStringLiteral("SELECT id, principal, action, scope, effect, params, predicate, "
                           "granted_by, granted_at, grant_option FROM acl ORDER BY id")))
        return store::sqlError(query, QStringLiteral("cannot read grants"));
    while (query.next()) {
        Grant grant;
        grant.id = query.value(0).toLongLong();
        grant.principal = query.value(1).toString();
        grant.action = query.value(2).toString();
        grant.scope = query.value(3).toString();
        // An unknown effect or unreadable params can only come from a hand edit;
        // reading them as a deny keeps such a row from ever widening access.
        const auto effect = effectFromName(query.value(4).toString());
        auto params = paramsFromJson(query.value(5).toString());
        grant.effect = effect && params ? *effect : Effect::Deny;
        grant.params = params ? *params : GrantParams{};
        grant.predicate = query.value(6).toString();
        grant.grantedBy = query.value(7).toString();
        grant.grantedAt = query.value(8).toString();
        grant.grantOption = query.value(9).toInt() == 1;
        const qsizetype index = snapshot.grants.size();
        if (isWildcardPrincipal(grant.principal))
            snapshot.wildcardPrincipalGrants << index;
        else
            snapshot.grantsByPrincipal[grant.principal] << index;
        snapshot.grants << std::move(grant);
    }
    return {};
}

Result<void> loadMemberships(QSqlDatabase db, PolicySnapshot &snapshot)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(
            QStringLiteral("SELECT child, parent FROM acl_membership ORDER BY child, parent")))
        return store::sqlError(query, QStringLiteral("cannot read memberships"));
    while (query.next())
        snapshot.parentsOf[query.value(0).toString()] << query.value(1).toString();
    return {};
}

Result<void> loadNetworkRules(QSqlDatabase db, PolicySnapshot &snapshot)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT id, folder, target, kind, created_at, created_by, "
                                   "methods, path FROM network_rules ORDER BY id")))
        return store::sqlError(query, QStringLiteral("cannot read network rules"));
    while (query.next()) {
        NetworkRule rule;
        rule.id = query.value(0).toLongLong();
        rule.folder = query.value(1).toString();
        rule.target = query.value(2).toString();
        rule.kind = ruleKindFromName(query.value(3).toString()).value_or(RuleKind::Deny);
        rule.createdAt = query.value(4).toString();
        rule.createdBy = query.value(5).toString();
        rule.methods = query.value(6).toString();
        rule.path = query.value(7).toString();
        snapshot.rulesByFolder[rule.folder] << std::move(rule);
    }
    return {};
}

Result<void> loadRoutes(QSqlDatabase db, PolicySnapshot &snapshot)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT id, seq, match, target FROM routes ORDER BY seq, id")))
        return store::sqlError(query, QStringLiteral("cannot read routes"));
    while (query.next()) {
        Route route{query.value(0).toLongLong(), query.value(1).toLongLong(),
                    query.value(2).toString(), query.value(3).toString()};
        snapshot.routes.append(parseRoute(std::move(route)));
    }
    return {};
}

} // namespace

PolicyCache::PolicyCache(QSqlDatabase db)
    : m_db(std::move(db))
    , m_generationQuery(m_db)
{
    m_generationQuery.setForwardOnly(true);
    m_generationQuery.prepare(QStringLiteral("SELECT value FROM policy_generation WHERE id = 1"));
}

Result<qint64> PolicyCache::readGeneration()
{
    if (!m_generationQuery.exec() || !m_generationQuery.next())
        return store::sqlError(m_generationQuery,
                               QStringLiteral("cannot read the policy generation"));
    const qint64 generation = m_generationQuery.value(0).toLongLong();
    // Finishing the statement ends its implicit read transaction, so a writer
    // in another process is never held back by an idle cursor of ours.
    m_generationQuery.finish();
    return generation;
}

Result<const PolicySnapshot *> PolicyCache::current()
{
    auto generation = readGeneration();
    if (!generation)
        return generation.error();
    if (m_snapshot && *generation == m_generation)
        return m_snapshot.get();
    // Read the tables and their generation in one transaction so the snapshot is
    // never labelled with a generation it does not hold. Inside a caller's write
    // transaction the caller's view is already consistent.
    const bool ownTransaction = m_db.transaction();
    generation = readGeneration();
    auto snapshot =
        generation ? load() : Result<std::unique_ptr<PolicySnapshot>>(generation.error());
    if (ownTransaction)
        m_db.commit();
    if (!snapshot)
        return snapshot.error();
    m_snapshot = std::move(*snapshot);
    // What a caller's open transaction shows may still be rolled back, and the
    // generation number would then be reused for other rows: use it only once.
    m_generation = ownTransaction ? *generation : -1;
    return m_snapshot.get();
}

Result<std::unique_ptr<PolicySnapshot>> PolicyCache::load()
{
    auto snapshot = std::make_unique<PolicySnapshot>();
    for (auto step : {loadGrants, loadMemberships, loadNetworkRules, loadRoutes}) {
        if (auto loaded = step(m_db, *snapshot); !loaded)
            return loaded.error();
    }
    return snapshot;
}

} // namespace arizuko::policy
