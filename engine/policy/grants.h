#pragma once

// Grants: the acl rows that say what each folder's agent may do through tools,
// evaluated live on every call (deny wins, no match denies), plus delegation and
// the membership graph that principals expand through.

#include "audit/audit_log.h"
#include "core/result.h"
#include "policy/grant.h"
#include "policy/policy_cache.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <utility>

namespace arizuko::policy {

struct Membership
{
    QString child;
    QString parent;
};

class Grants
{
public:
    Grants(PolicyCache &cache, audit::AuditLog &audit);

    // May principal perform action on the folder scope with these call params?
    // Pure: records nothing, so previews and `grant check` can ask freely. A
    // param named in `caseInsensitive` is matched case-folded on both sides.
    Result<Decision> authorize(const QString &principal, const QString &action,
                               const QString &scope, const CallParams &params = {},
                               const CaseInsensitiveParams &caseInsensitive = {});
    // authorize() for a real call (the tool gateway's): the decision is written
    // to the audit log, with the call's param names but never their values.
    Result<Decision> decide(const QString &principal, const QString &action, const QString &scope,
                            const CallParams &params = {},
                            const CaseInsensitiveParams &caseInsensitive = {});

    // The tools (mcp:<tool>) a principal's agent can see at scope: those some
    // allow row covers (params may still narrow a call) and no unconditional deny
    // removes. Wildcard rows are expanded over the catalogue: by default every
    // tool any grant names, which includes the seeded messaging tools.
    Result<QStringList> effectiveActions(const QString &principal, const QString &scope,
                                         const QStringList &toolCatalogue = {});

    // The default catalogue of effectiveActions(): every mcp:<tool> some row names.
    Result<QStringList> toolCatalogue();

    // The rows that apply to principal: its own, its memberships', and wildcard
    // principals matching any of them. Every row when principal is empty.
    Result<QList<Grant>> list(const QString &principal = {});

    // Written by the user (the operator): any valid row. Adding a row identical to
    // an existing one returns the existing row.
    Result<Grant> add(Grant grant, const QString &actor);
    // Written by a folder's agent: only what one of the grantor's rows WITH GRANT
    // OPTION covers, never a deny row, never to a wildcard principal, and never
    // past a deny the grantor holds.
    Result<Grant> delegate(const QString &grantor, Grant grant);
    Result<Grant> remove(qint64 id, const QString &actor);

    Result<QStringList> expand(const QString &principal);
    Result<QList<Membership>> memberships();
    // Refuses a self-membership, a wildcard and an edge that would close a cycle.
    Result<void> addMembership(const QString &child, const QString &parent, const QString &actor);
    Result<void> removeMembership(const QString &child, const QString &parent,
                                  const QString &actor);

private:
    Result<Grant> insert(Grant grant, const QString &grantedBy, const QString &auditKind);

    PolicyCache &m_cache;
    audit::AuditLog &m_audit;
};

// What add() checks before it writes: principal, action, scope, params.
Result<void> validateGrant(const Grant &grant);
Result<void> validateScope(const QString &scope);
Result<void> validatePrincipal(const QString &principal);

} // namespace arizuko::policy
