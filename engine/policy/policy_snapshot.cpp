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

} // namespace arizuko::policy
