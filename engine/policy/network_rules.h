#pragma once

// Network rules: per-folder allow and deny entries, inherited down the folder
// tree from the base folder ''. resolve() is what a turn's egress proxy is
// started with; test() answers what that proxy would do with one host.

#include "audit/audit_log.h"
#include "core/result.h"
#include "policy/grants.h"
#include "policy/network_rule.h"
#include "policy/policy_cache.h"
#include "policy/request_rule.h"

namespace arizuko::policy {

struct AddedRule
{
    NetworkRule rule;
    bool created = false; // false: an identical rule already existed
};

class NetworkRules
{
public:
    NetworkRules(PolicyCache &cache, Grants &grants, audit::AuditLog &audit);

    // The folder must exist (or be the base ''); host is validated and stored in
    // its normal form (see host_name.h). Methods or a path make it a request
    // rule (request_rule.h: normalizeRequestMatch).
    Result<AddedRule> add(const QString &folder, const QString &host, RuleKind kind,
                          const QString &actor, const QString &methods = {},
                          const QString &path = {});
    // Removes the folder's own rule(s) for host with these methods and path
    // (none: the host rule), of one kind or of both.
    Result<QList<NetworkRule>> remove(const QString &folder, const QString &host,
                                      std::optional<RuleKind> kind, const QString &actor,
                                      const QString &methods = {}, const QString &path = {});
    // Own rules of one folder, or every rule when folder is null.
    Result<QList<NetworkRule>> list(const std::optional<QString> &folder = std::nullopt);

    Result<NetworkPolicy> resolve(const QString &folder);
    Result<HostVerdict> test(const QString &folder, const QString &host);
    Result<RequestVerdict> testRequest(const QString &folder, const QString &method,
                                       const QString &host, const QString &path);

private:
    Result<void> requireFolder(const QString &folder);

    PolicyCache &m_cache;
    Grants &m_grants;
    audit::AuditLog &m_audit;
};

// What the proxy started with `policy` (folder's, from resolve()) would do with
// host: test() on a policy already read, so a view that shows the policy can
// answer without reading the store again.
Result<HostVerdict> testHost(const NetworkPolicy &policy, const QString &folder,
                             const QString &host);

} // namespace arizuko::policy
