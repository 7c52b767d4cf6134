#pragma once

// An in-memory copy of the policy tables (acl, acl_membership, network_rules,
// routes) as of one policy generation, indexed for the lookups authorize() makes.

#include "policy/grant.h"
#include "policy/network_rule.h"
#include "policy/route.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>
#include <optional>

namespace arizuko::policy {

class PolicySnapshot
{
public:
    QList<Grant> grants;
    QHash<QString, QList<qsizetype>> grantsByPrincipal;
    QList<qsizetype> wildcardPrincipalGrants;
    QHash<QString, QStringList> parentsOf;
    QHash<QString, QList<NetworkRule>> rulesByFolder;
    QList<ParsedRoute> routes; // ordered by seq, then id

    // The principal itself followed by every principal it is a member of,
    // transitively; a membership cycle ends the walk instead of looping.
    const QStringList &expand(const QString &principal) const;

    // The network rules along folder's ancestry ('' first), deduplicated into
    // allow and deny lists; allowAll is left to the caller (it is a grant).
    const NetworkPolicy &rulesAlong(const QString &folder) const;

private:
    // Memoised per snapshot: a new generation is a new snapshot.
    mutable QHash<QString, QStringList> m_expansions;
    struct Along
    {
        NetworkPolicy policy;
        QSet<QString> allowSeen;
        QSet<QString> denySeen;
    };
    const Along &along(const QString &folder) const;
    mutable QHash<QString, Along> m_along;
};

} // namespace arizuko::policy
