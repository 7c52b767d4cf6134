#include "policy/policy.h"

#include "store/store.h"

namespace arizuko::policy {

Policy::Policy(store::Store &store)
    : m_cache(store.database())
    , m_audit(store)
    , m_grants(m_cache, m_audit)
    , m_network(m_cache, m_grants, m_audit)
    , m_routes(m_cache, m_audit)
{}

} // namespace arizuko::policy
