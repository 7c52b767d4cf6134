#pragma once

// The policy of one store as seen from the calling thread: grants, network rules
// and routes over one live-validated snapshot. Create one per thread.

#include "audit/audit_log.h"
#include "policy/grants.h"
#include "policy/network_rules.h"
#include "policy/policy_cache.h"
#include "policy/routes.h"

namespace arizuko::store {
class Store;
}

namespace arizuko::policy {

class Policy
{
public:
    explicit Policy(store::Store &store);
    Policy(const Policy &) = delete;
    Policy &operator=(const Policy &) = delete;

    Grants &grants() { return m_grants; }
    NetworkRules &network() { return m_network; }
    Routes &routes() { return m_routes; }

private:
    PolicyCache m_cache;
    audit::AuditLog m_audit;
    Grants m_grants;
    NetworkRules m_network;
    Routes m_routes;
};

} // namespace arizuko::policy
