#pragma once

// Routes: which folder an incoming message goes to. The lowest seq whose
// key=glob predicates all match the message's attributes wins.

#include "audit/audit_log.h"
#include "core/result.h"
#include "policy/policy_cache.h"
#include "policy/route.h"

namespace arizuko::policy {

class Routes
{
public:
    Routes(PolicyCache &cache, audit::AuditLog &audit);

    // match and target are validated (see route.h) before anything is written.
    Result<Route> add(qint64 seq, const QString &match, const QString &target,
                      const QString &actor);
    Result<Route> remove(qint64 id, const QString &actor);
    // Moves route `id` to `position` (0: tried first) in the order routes are
    // tried. The routes keep the seq values they had, re-dealt in the new
    // order (renumbered 10, 20, ... only when two shared one); one
    // transaction, audited as route.reorder with the new order.
    Result<QList<Route>> move(qint64 id, qsizetype position, const QString &actor);
    Result<QList<Route>> list();

    // The winning route with its folder and observe flag; nullopt when none matches.
    Result<std::optional<RouteMatch>> resolve(const MessageAttributes &attributes);

private:
    PolicyCache &m_cache;
    audit::AuditLog &m_audit;
};

} // namespace arizuko::policy
