#include "policy/policy_snapshot.h"

#include <QSet>

namespace arizuko::policy {

const QStringList &PolicySnapshot::expand(const QString &principal) const
{
    const auto known = m_expansions.constFind(principal);
    if (known != m_expansions.cend())
        return *known;
    QStringList order{principal};
    QSet<QString> seen{principal};
    for (qsizetype next = 0; next < order.size(); ++next) {
        for (const QString &parent : parentsOf.value(order.at(next))) {
            if (!seen.contains(parent)) {
                seen.insert(parent);
                order << parent;
            }
        }
    }
    return *m_expansions.insert(principal, order);
}

const NetworkPolicy &PolicySnapshot::rulesAlong(const QString &folder) const
{
    return along(folder).policy;
}

// Built on the parent's memo: a folder without rules of its own shares its
// parent's lists outright, so a first question about a deep folder is cheap.
const PolicySnapshot::Along &PolicySnapshot::along(const QString &folder) const
{
    const auto known = m_along.constFind(folder);
    if (known != m_along.cend())
        return *known;
    Along result;
    if (!folder.isEmpty()) {
        const qsizetype slash = folder.lastIndexOf(u'/');
        result = along(slash < 0 ? QString() : folder.first(slash));
    }
    const auto own = rulesByFolder.constFind(folder);
    if (own != rulesByFolder.cend()) {
        for (const NetworkRule &rule : *own) {
            result.policy.rules << rule;
            if (rule.isRequestRule())
                continue;
            const bool allow = rule.kind == RuleKind::Allow;
            QSet<QString> &seen = allow ? result.allowSeen : result.denySeen;
            if (!seen.contains(rule.target)) {
                seen.insert(rule.target);
                (allow ? result.policy.allow : result.policy.deny) << rule.target;
            }
        }
    }
    return *m_along.insert(folder, std::move(result));
}

} // namespace arizuko::policy
