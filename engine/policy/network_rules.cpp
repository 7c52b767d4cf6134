#include "policy/network_rules.h"

#include "policy/action.h"
#include "policy/host_name.h"
#include "policy/request_rule.h"
#include "policy/sql_helpers.h"
#include "store/query.h"
#include "store/timestamp.h"

#include <QSqlQuery>
#include <QVariant>
#include <algorithm>

namespace arizuko::policy {
namespace {

// The deepest matching rule of a kind: the one nearest the folder names it best.
std::optional<NetworkRule> nearestMatch(const QList<NetworkRule> &rules, RuleKind kind,
                                        const QString &host)
{
    for (auto it = rules.crbegin(); it != rules.crend(); ++it) {
        if (!it->isRequestRule() && it->kind == kind && ruleMatchesHost(it->target, host))
            return *it;
    }
    return std::nullopt;
}

} // namespace

NetworkRules::NetworkRules(PolicyCache &cache, Grants &grants, audit::AuditLog &audit)
    : m_cache(cache)
    , m_grants(grants)
    , m_audit(audit)
{}

Result<void> NetworkRules::requireFolder(const QString &folder)
{
    if (folder.isEmpty())
        return {};
    QSqlQuery query(m_cache.database());
    query.prepare(QStringLiteral("SELECT 1 FROM groups WHERE folder = ?"));
    query.addBindValue(folder);
    if (!query.exec())
        return store::sqlError(query, QStringLiteral("cannot look up the folder"));
    if (!query.next())
        return makeError(
            QStringLiteral("policy.no-such-folder"),
            QStringLiteral("there is no folder '%1' (create it first; '' is the base every "
                           "folder inherits)")
                .arg(folder));
    return {};
}

Result<AddedRule> NetworkRules::add(const QString &folder, const QString &host, RuleKind kind,
                                    const QString &actor, const QString &methods,
                                    const QString &path)
{
    auto target = normalizeRuleTarget(host);
    if (!target)
        return target.error();
    auto match = normalizeRequestMatch(methods, path);
    if (!match)
        return match.error();
    return m_audit.writeAudited([&]() -> Result<AddedRule> {
        if (auto exists = requireFolder(folder); !exists)
            return exists.error();
        auto own = list(folder);
        if (!own)
            return own.error();
        for (const NetworkRule &rule : std::as_const(*own)) {
            if (rule.target == *target && rule.kind == kind && rule.methods == match->methods &&
                rule.path == match->path)
                return AddedRule{rule, false};
        }
        NetworkRule rule{0,     folder,         *target,    kind, store::nowTimestamp(),
                         actor, match->methods, match->path};
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral(
            "INSERT INTO network_rules (folder, target, kind, created_at, created_by, methods, "
            "path) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        query.addBindValue(notNull(rule.folder));
        query.addBindValue(rule.target);
        query.addBindValue(ruleKindName(rule.kind));
        query.addBindValue(rule.createdAt);
        query.addBindValue(notNull(rule.createdBy));
        query.addBindValue(notNull(rule.methods));
        query.addBindValue(notNull(rule.path));
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot add the network rule"));
        rule.id = query.lastInsertId().toLongLong();
        if (auto recorded =
                m_audit.record(actor, QStringLiteral("network.add"), folder, toJson(rule));
            !recorded)
            return recorded.error();
        return AddedRule{rule, true};
    });
}

Result<QList<NetworkRule>> NetworkRules::remove(const QString &folder, const QString &host,
                                                std::optional<RuleKind> kind, const QString &actor,
                                                const QString &methods, const QString &path)
{
    auto target = normalizeRuleTarget(host);
    if (!target)
        return target.error();
    auto match = normalizeRequestMatch(methods, path);
    if (!match)
        return match.error();
    return m_audit.writeAudited([&]() -> Result<QList<NetworkRule>> {
        auto own = list(folder);
        if (!own)
            return own.error();
        QList<NetworkRule> removed;
        for (const NetworkRule &rule : std::as_const(*own)) {
            // Each rule is its own: a host rule's removal leaves the host's request rules.
            if (rule.target == *target && (!kind || rule.kind == *kind) &&
                rule.methods == match->methods && rule.path == match->path)
                removed << rule;
        }
        if (removed.isEmpty())
            return makeError(
                QStringLiteral("policy.no-such-rule"),
                QStringLiteral("%1 has no %2rule for '%3'")
                    .arg(folderLabel(folder), kind ? ruleKindName(*kind) + u' ' : QString(),
                         match->path.isEmpty()
                             ? *target
                             : QStringList{match->methods, *target, match->path}.join(u' ')));
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("DELETE FROM network_rules WHERE id = ?"));
        for (const NetworkRule &rule : std::as_const(removed)) {
            query.addBindValue(rule.id);
            if (!query.exec())
                return store::sqlError(query, QStringLiteral("cannot remove the network rule"));
            if (auto recorded =
                    m_audit.record(actor, QStringLiteral("network.remove"), folder, toJson(rule));
                !recorded)
                return recorded.error();
        }
        return removed;
    });
}

Result<QList<NetworkRule>> NetworkRules::list(const std::optional<QString> &folder)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    if (folder)
        return (*snapshot)->rulesByFolder.value(*folder);
    QList<NetworkRule> all;
    for (const QList<NetworkRule> &rules : (*snapshot)->rulesByFolder)
        all << rules;
    std::sort(all.begin(), all.end(), [](const NetworkRule &a, const NetworkRule &b) {
        return std::pair(a.folder, a.id) < std::pair(b.folder, b.id);
    });
    return all;
}

Result<NetworkPolicy> NetworkRules::resolve(const QString &folder)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    NetworkPolicy policy = (*snapshot)->rulesAlong(folder);
    if (!folder.isEmpty()) {
        auto egress = m_grants.authorize(folder, kEgressAction.toString(), folder);
        if (!egress)
            return egress.error();
        policy.allowAll = egress->allowed;
        if (egress->allowed)
            policy.egressGrant = egress->decidingGrant;
    }
    return policy;
}

Result<HostVerdict> NetworkRules::test(const QString &folder, const QString &host)
{
    auto policy = resolve(folder);
    if (!policy)
        return policy.error();
    return testHost(*policy, folder, host);
}

Result<RequestVerdict> NetworkRules::testRequest(const QString &folder, const QString &method,
                                                 const QString &host, const QString &path)
{
    auto policy = resolve(folder);
    if (!policy)
        return policy.error();
    return policy::testRequest(*policy, folder, method, host, path);
}

Result<HostVerdict> testHost(const NetworkPolicy &policy, const QString &folder,
                             const QString &host)
{
    auto normalized = normalizeRequestHost(host);
    if (!normalized)
        return normalized.error();
    HostVerdict verdict;
    verdict.host = *normalized;
    if (auto deny = nearestMatch(policy.rules, RuleKind::Deny, *normalized)) {
        verdict.reason = QStringLiteral("denied by rule 'deny %1' of %2")
                             .arg(deny->target, folderLabel(deny->folder));
        verdict.decidingRule = std::move(deny);
        return verdict;
    }
    const QStringList inspected = inspectedHosts(policy);
    verdict.inspected = std::any_of(inspected.cbegin(), inspected.cend(), [&](const QString &rule) {
        return ruleMatchesHost(rule, *normalized);
    });
    if (verdict.inspected) {
        // Its rules, not its lists, decide each request: the host passes, its requests may not.
        verdict.allowed = true;
        verdict.reason = QStringLiteral("inspected: rules by method and path of %1 or its "
                                        "ancestors decide each request (test one with a method "
                                        "and a path)")
                             .arg(folderLabel(folder));
        return verdict;
    }
    verdict.allowed = true;
    if (auto allow = nearestMatch(policy.rules, RuleKind::Allow, *normalized)) {
        verdict.reason = QStringLiteral("allowed by rule 'allow %1' of %2")
                             .arg(allow->target, folderLabel(allow->folder));
        verdict.decidingRule = std::move(allow);
        return verdict;
    }
    if (policy.allowAll) {
        verdict.egressGrant = policy.egressGrant;
        verdict.reason = QStringLiteral("allowed by the egress grant ") +
                         (policy.egressGrant ? describeGrant(*policy.egressGrant) : QString());
        return verdict;
    }
    verdict.allowed = false;
    verdict.reason =
        QStringLiteral("no rule of %1 or its ancestors allows it").arg(folderLabel(folder));
    return verdict;
}

} // namespace arizuko::policy
