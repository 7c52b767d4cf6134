#include "policy/grants.h"

#include "policy/action.h"
#include "policy/call_params.h"
#include "policy/glob.h"
#include "policy/sql_helpers.h"
#include "store/query.h"
#include "store/timestamp.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>
#include <algorithm>

namespace arizuko::policy {
namespace {

// A call is judged with its params; a tool's visibility is judged before any
// call exists, so param-narrowed allows count and param-narrowed denies do not.
enum class Judging
{
    Call,
    Visibility
};

// A call's params and which of them the service compares without case.
struct CallValues
{
    const CallParams &params;
    const CaseInsensitiveParams &caseInsensitive;
};

bool paramsMatch(const Grant &grant, const CallValues &call, Judging judging)
{
    if (judging == Judging::Visibility)
        return grant.effect == Effect::Allow || grant.params.isEmpty();
    for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it) {
        const auto value = call.params.constFind(it.key());
        if (value == call.params.cend() ||
            !paramGlobMatches(it.key(), it.value(), *value, grant.effect,
                              call.caseInsensitive.contains(it.key())))
            return false;
    }
    return true;
}

// No claims exist on this host: a claim-conditioned allow never applies, and a
// claim-conditioned deny always does, so a predicate can only ever narrow.
bool predicateMatches(const Grant &grant)
{
    return grant.predicate.isEmpty() || grant.effect == Effect::Deny;
}

bool grantApplies(const Grant &grant, QStringView action, QStringView scope, const CallValues &call,
                  Judging judging)
{
    return actionCovers(grant.action, action) && globMatches(grant.scope, scope) &&
           predicateMatches(grant) && paramsMatch(grant, call, judging);
}

template<typename Visit>
void forEachGrantOf(const PolicySnapshot &snapshot, const QStringList &principals, Visit &&visit)
{
    for (const QString &principal : principals) {
        const auto own = snapshot.grantsByPrincipal.constFind(principal);
        if (own == snapshot.grantsByPrincipal.cend())
            continue;
        for (const qsizetype index : *own) {
            if (!visit(snapshot.grants.at(index)))
                return;
        }
    }
    for (const qsizetype index : snapshot.wildcardPrincipalGrants) {
        const Grant &grant = snapshot.grants.at(index);
        const bool matchesAny =
            std::any_of(principals.cbegin(), principals.cend(), [&grant](const QString &principal) {
                return globMatches(grant.principal, principal);
            });
        if (matchesAny && !visit(grant))
            return;
    }
}

Decision evaluate(const PolicySnapshot &snapshot, const QString &principal, const QString &action,
                  const QString &scope, const CallValues &call, Judging judging)
{
    const Grant *allow = nullptr;
    const Grant *deny = nullptr;
    forEachGrantOf(snapshot, snapshot.expand(principal), [&](const Grant &grant) {
        if (!grantApplies(grant, action, scope, call, judging))
            return true;
        if (grant.effect == Effect::Deny) {
            deny = &grant;
            return false;
        }
        if (!allow)
            allow = &grant;
        return true;
    });
    if (deny)
        return Decision{false, *deny, QStringLiteral("denied by grant ") + describeGrant(*deny)};
    if (allow)
        return Decision{true, *allow, QStringLiteral("allowed by grant ") + describeGrant(*allow)};
    return Decision{false, std::nullopt,
                    QStringLiteral("no grant allows %1 to %2 on %3").arg(principal, action, scope)};
}

bool paramsCover(const GrantParams &held, const GrantParams &wanted)
{
    for (auto it = held.cbegin(); it != held.cend(); ++it) {
        const auto narrowed = wanted.constFind(it.key());
        if (narrowed == wanted.cend() || !paramGlobCovers(it.key(), it.value(), *narrowed))
            return false;
    }
    return true;
}

bool grantCovers(const Grant &held, const Grant &wanted)
{
    return actionCovers(held.action, wanted.action) && globCovers(held.scope, wanted.scope) &&
           paramsCover(held.params, wanted.params);
}

// A deny the grantor holds that touches the wanted row anywhere: either side's
// action or scope reaching into the other's.
bool denyOverlaps(const Grant &deny, const Grant &wanted)
{
    const bool actions =
        actionCovers(deny.action, wanted.action) || actionCovers(wanted.action, deny.action);
    const bool scopes =
        globCovers(deny.scope, wanted.scope) || globCovers(wanted.scope, deny.scope) ||
        globMatches(deny.scope, wanted.scope) || globMatches(wanted.scope, deny.scope);
    return actions && scopes;
}

bool hasWhitespace(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(), [](QChar c) { return c.isSpace(); });
}

// Folder names never hold these; in a principal, scope or param they could only
// hide what a row says (a U+202E reverses the rest of it in a listing).
constexpr qsizetype kMaxFieldLength = 255;

bool unprintableOrLong(const QString &text)
{
    return text.size() > kMaxFieldLength ||
           std::any_of(text.cbegin(), text.cend(), [](QChar c) {
               return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format;
           });
}

// Every tool some row names: what wildcard rows are expanded over.
QStringList catalogueOf(const PolicySnapshot &snapshot)
{
    QStringList tools;
    for (const Grant &grant : snapshot.grants) {
        if (isToolAction(grant.action) && grant.action != u"mcp:*")
            tools << grant.action;
    }
    tools.sort();
    tools.removeDuplicates();
    return tools;
}

bool sameRow(const Grant &a, const Grant &b)
{
    return a.principal == b.principal && a.action == b.action && a.scope == b.scope &&
           a.effect == b.effect && a.params == b.params && a.predicate == b.predicate &&
           a.grantOption == b.grantOption;
}

} // namespace

Result<void> validateGrant(const Grant &grant)
{
    if (auto valid = validatePrincipal(grant.principal); !valid)
        return valid;
    if (auto valid = validateAction(grant.action); !valid)
        return valid;
    if (auto valid = validateScope(grant.scope); !valid)
        return valid;
    for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it) {
        if (it.key().isEmpty() || hasWhitespace(it.key()) || it.key().contains(u'=') ||
            unprintableOrLong(it.key()))
            return makeError(QStringLiteral("policy.bad-params"),
                             QStringLiteral("param name '%1' is not valid; use NAME=GLOB, e.g. "
                                            "jid=telegram:*")
                                 .arg(it.key()));
        if (unprintableOrLong(it.value()))
            return makeError(
                QStringLiteral("policy.bad-params"),
                QStringLiteral("the glob of param '%1' holds a control character or is longer "
                               "than %2 characters")
                    .arg(it.key())
                    .arg(kMaxFieldLength));
    }
    if (!grant.predicate.isEmpty())
        return makeError(
            QStringLiteral("policy.bad-predicate"),
            QStringLiteral("claim predicates are not supported on this host; leave it empty"));
    return {};
}

Result<void> validateScope(const QString &scope)
{
    const auto bad = [&scope](const QString &problem) {
        return makeError(
            QStringLiteral("policy.bad-scope"),
            QStringLiteral("scope '%1' %2; use a folder or folder glob: corp (exactly corp), "
                           "corp/* (its direct children), corp/** (corp and everything under "
                           "it) or ** (every folder)")
                .arg(scope, problem));
    };
    if (scope.isEmpty())
        return bad(QStringLiteral("is empty"));
    if (hasWhitespace(scope) || scope.contains(u'\\') || scope.contains(QChar(0)))
        return bad(QStringLiteral("contains a space, a backslash or NUL"));
    if (unprintableOrLong(scope))
        return bad(QStringLiteral("holds a control character or is longer than %1 characters")
                       .arg(kMaxFieldLength));
    for (const QString &segment : scope.split(u'/')) {
        if (segment.isEmpty())
            return bad(QStringLiteral("has an empty segment (a leading, trailing or double '/')"));
        if (segment == u".." || segment == u".")
            return bad(QStringLiteral("has a '.' or '..' segment"));
    }
    return {};
}

Result<void> validatePrincipal(const QString &principal)
{
    if (principal.isEmpty() || hasWhitespace(principal) || principal.contains(QChar(0)) ||
        unprintableOrLong(principal))
        return makeError(
            QStringLiteral("policy.bad-principal"),
            QStringLiteral("principal '%1' is not valid; use a folder (corp/eng), a role "
                           "(role:member) or a glob of them (corp/*, **)")
                .arg(principal));
    return {};
}

Grants::Grants(PolicyCache &cache, audit::AuditLog &audit)
    : m_cache(cache)
    , m_audit(audit)
{}

Result<Decision> Grants::authorize(const QString &principal, const QString &action,
                                   const QString &scope, const CallParams &params,
                                   const CaseInsensitiveParams &caseInsensitive)
{
    // Matched on what the tool acts on, never on the spelling it was sent.
    const auto normalized = normalizeCallParams(params);
    if (!normalized)
        return normalized.error();
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    return evaluate(**snapshot, principal, action, scope, {*normalized, caseInsensitive},
                    Judging::Call);
}

Result<Decision> Grants::decide(const QString &principal, const QString &action,
                                const QString &scope, const CallParams &params,
                                const CaseInsensitiveParams &caseInsensitive)
{
    auto decision = authorize(principal, action, scope, params, caseInsensitive);
    if (!decision)
        return decision;
    QJsonObject detail{
        {QStringLiteral("action"), action},
        {QStringLiteral("scope"), scope},
        {QStringLiteral("allowed"), decision->allowed},
        {QStringLiteral("reason"), decision->reason},
        {QStringLiteral("param_names"), QJsonArray::fromStringList(params.keys())},
    };
    if (decision->decidingGrant)
        detail.insert(QStringLiteral("grant"), decision->decidingGrant->id);
    if (auto recorded =
            m_audit.record(principal, QStringLiteral("grant.decision"), principal, detail);
        !recorded)
        return recorded.error();
    return decision;
}

Result<QStringList> Grants::effectiveActions(const QString &principal, const QString &scope,
                                             const QStringList &toolCatalogue)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    QStringList tools = toolCatalogue.isEmpty() ? catalogueOf(**snapshot) : toolCatalogue;
    tools.sort();
    tools.removeDuplicates();
    QStringList visible;
    for (const QString &tool : std::as_const(tools)) {
        if (evaluate(**snapshot, principal, tool, scope, {CallParams{}, CaseInsensitiveParams{}},
                     Judging::Visibility)
                .allowed)
            visible << tool;
    }
    return visible;
}

Result<QStringList> Grants::toolCatalogue()
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    return catalogueOf(**snapshot);
}

Result<QList<Grant>> Grants::list(const QString &principal)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    if (principal.isEmpty())
        return (*snapshot)->grants;
    QList<Grant> applying;
    forEachGrantOf(**snapshot, (*snapshot)->expand(principal), [&applying](const Grant &grant) {
        applying << grant;
        return true;
    });
    std::sort(applying.begin(), applying.end(),
              [](const Grant &a, const Grant &b) { return a.id < b.id; });
    return applying;
}

Result<Grant> Grants::add(Grant grant, const QString &actor)
{
    return insert(std::move(grant), actor, QStringLiteral("grant.add"));
}

Result<Grant> Grants::delegate(const QString &grantor, Grant grant)
{
    const auto refuse = [&](const QString &why) {
        return makeError(QStringLiteral("policy.delegation-refused"),
                         QStringLiteral("%1 may not grant %2 %3 on %4: %5")
                             .arg(grantor, grant.principal, grant.action, grant.scope, why));
    };
    if (grant.effect == Effect::Deny)
        return refuse(QStringLiteral("a delegation never writes a deny row"));
    if (isWildcardPrincipal(grant.principal))
        return refuse(QStringLiteral("a delegation never names a wildcard principal"));
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    bool covered = false;
    const Grant *blockingDeny = nullptr;
    forEachGrantOf(**snapshot, (*snapshot)->expand(grantor), [&](const Grant &held) {
        if (held.effect == Effect::Deny && denyOverlaps(held, grant)) {
            blockingDeny = &held;
            return false;
        }
        if (held.effect == Effect::Allow && held.grantOption && held.predicate.isEmpty() &&
            grantCovers(held, grant))
            covered = true;
        return true;
    });
    if (blockingDeny)
        return refuse(QStringLiteral("the grantor itself is denied by ") +
                      describeGrant(*blockingDeny));
    if (!covered)
        return refuse(QStringLiteral("no grant it holds WITH GRANT OPTION covers it"));
    return insert(std::move(grant), grantor, QStringLiteral("grant.delegate"));
}

Result<Grant> Grants::insert(Grant grant, const QString &grantedBy, const QString &auditKind)
{
    if (auto valid = validateGrant(grant); !valid)
        return valid.error();
    return m_audit.writeAudited([&]() -> Result<Grant> {
        auto existing = list();
        if (!existing)
            return existing.error();
        for (const Grant &row : std::as_const(*existing)) {
            if (sameRow(row, grant))
                return row;
        }
        grant.grantedBy = grantedBy;
        grant.grantedAt = store::nowTimestamp();
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral(
            "INSERT INTO acl (principal, action, scope, effect, params, predicate, "
            "granted_by, granted_at, grant_option) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        query.addBindValue(grant.principal);
        query.addBindValue(grant.action);
        query.addBindValue(grant.scope);
        query.addBindValue(effectName(grant.effect));
        query.addBindValue(paramsToJson(grant.params));
        query.addBindValue(notNull(grant.predicate));
        query.addBindValue(notNull(grant.grantedBy));
        query.addBindValue(grant.grantedAt);
        query.addBindValue(grant.grantOption ? 1 : 0);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot add the grant"));
        grant.id = query.lastInsertId().toLongLong();
        if (auto recorded = m_audit.record(grantedBy, auditKind, grant.principal, toJson(grant));
            !recorded)
            return recorded.error();
        return grant;
    });
}

Result<Grant> Grants::remove(qint64 id, const QString &actor)
{
    return m_audit.writeAudited([&]() -> Result<Grant> {
        auto rows = list();
        if (!rows)
            return rows.error();
        const auto found = std::find_if(rows->cbegin(), rows->cend(),
                                        [id](const Grant &grant) { return grant.id == id; });
        if (found == rows->cend())
            return makeError(QStringLiteral("policy.no-such-grant"),
                             QStringLiteral("there is no grant #%1").arg(id));
        const Grant removed = *found;
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("DELETE FROM acl WHERE id = ?"));
        query.addBindValue(id);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot remove the grant"));
        if (auto recorded = m_audit.record(actor, QStringLiteral("grant.remove"), removed.principal,
                                           toJson(removed));
            !recorded)
            return recorded.error();
        return removed;
    });
}

Result<QStringList> Grants::expand(const QString &principal)
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    return (*snapshot)->expand(principal);
}

Result<QList<Membership>> Grants::memberships()
{
    auto snapshot = m_cache.current();
    if (!snapshot)
        return snapshot.error();
    QList<Membership> edges;
    for (auto it = (*snapshot)->parentsOf.cbegin(); it != (*snapshot)->parentsOf.cend(); ++it) {
        for (const QString &parent : it.value())
            edges.append({it.key(), parent});
    }
    std::sort(edges.begin(), edges.end(), [](const Membership &a, const Membership &b) {
        return std::pair(a.child, a.parent) < std::pair(b.child, b.parent);
    });
    return edges;
}

Result<void> Grants::addMembership(const QString &child, const QString &parent,
                                   const QString &actor)
{
    for (const QString &principal : {child, parent}) {
        if (auto valid = validatePrincipal(principal); !valid)
            return valid;
        if (isWildcardPrincipal(principal))
            return makeError(QStringLiteral("policy.bad-membership"),
                             QStringLiteral("'%1' is a wildcard; a membership joins two named "
                                            "principals")
                                 .arg(principal));
    }
    if (child == parent)
        return makeError(QStringLiteral("policy.membership-cycle"),
                         QStringLiteral("'%1' cannot be a member of itself").arg(child));
    return m_audit.writeAudited([&]() -> Result<void> {
        auto above = expand(parent);
        if (!above)
            return above.error();
        if (above->contains(child))
            return makeError(
                QStringLiteral("policy.membership-cycle"),
                QStringLiteral("'%1' is already (transitively) a member of '%2'; the membership "
                               "would close a cycle")
                    .arg(parent, child));
        QSqlQuery query(m_cache.database());
        query.prepare(
            QStringLiteral("INSERT OR IGNORE INTO acl_membership (child, parent) VALUES (?, ?)"));
        query.addBindValue(child);
        query.addBindValue(parent);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot add the membership"));
        if (query.numRowsAffected() > 0) {
            const QJsonObject edge{{QStringLiteral("child"), child},
                                   {QStringLiteral("parent"), parent}};
            if (auto recorded =
                    m_audit.record(actor, QStringLiteral("grant.member.add"), child, edge);
                !recorded)
                return recorded.error();
        }
        return {};
    });
}

Result<void> Grants::removeMembership(const QString &child, const QString &parent,
                                      const QString &actor)
{
    return m_audit.writeAudited([&]() -> Result<void> {
        QSqlQuery query(m_cache.database());
        query.prepare(QStringLiteral("DELETE FROM acl_membership WHERE child = ? AND parent = ?"));
        query.addBindValue(child);
        query.addBindValue(parent);
        if (!query.exec())
            return store::sqlError(query, QStringLiteral("cannot remove the membership"));
        if (query.numRowsAffected() == 0)
            return makeError(QStringLiteral("policy.no-such-membership"),
                             QStringLiteral("'%1' is not a member of '%2'").arg(child, parent));
        const QJsonObject edge{{QStringLiteral("child"), child},
                               {QStringLiteral("parent"), parent}};
        if (auto recorded =
                m_audit.record(actor, QStringLiteral("grant.member.remove"), child, edge);
            !recorded)
            return recorded.error();
        return {};
    });
}

} // namespace arizuko::policy
