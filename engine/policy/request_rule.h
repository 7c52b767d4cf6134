#pragma once

// Rules by method and path (issue 37; docs/egress.md, "Inspected hosts"): a
// network rule that names methods and a path pattern is a request rule, and
// the host it names is inspected: the turn's proxy terminates TLS to it with
// the turn's own CA and judges each request. Paths are parsed and matched by
// the proxy's own code (egress/src/request_rules.hpp, linked from
// egress_core), so what testRequest() answers is what the proxy does.

#include "core/result.h"
#include "policy/network_rule.h"

#include <QString>
#include <QStringList>

namespace arizuko::policy {

struct RequestMatch
{
    QString methods; // '*' or upper-case names joined by ','; '' with path '': a host rule
    QString path;    // a glob starting with '/'
};

// Validates and normalises what a user typed: both empty is a host rule; one
// of them empty takes its widest value ('*', '/**'). Methods are upper-cased
// and deduplicated in order.
Result<RequestMatch> normalizeRequestMatch(const QString &methods, const QString &path);

// `path` (a request's path, no query) against a pattern: '*' any characters
// of one segment, a '**' segment any number of segments.
bool pathGlobMatches(QStringView pattern, QStringView path);

bool ruleMatchesMethod(const NetworkRule &rule, QStringView method);

// What a turn's proxy inspects, computed once at the turn's start.
// rules: what it gets as --rule, in ancestry order: every request rule, and
// for each inspected host that a host allow entry or the egress grant
// already allows, `allow * HOST /**`, so a host allow entry keeps allowing
// every request that no deny rule refuses. hosts: the hosts it inspects,
// what the turn's CA is constrained to: those the rules name and
// `boundHosts`, the hosts the turn's bound secrets go to
// (secrets/secret_bindings.h), which get `allow * HOST /**` on the same terms.
struct ProxyInspection
{
    QStringList rules;
    QStringList hosts;
};
ProxyInspection proxyInspection(const NetworkPolicy &policy, const QStringList &boundHosts = {});

// proxyInspection(policy) without bound secrets, one half each.
QStringList proxyRequestRules(const NetworkPolicy &policy);
QStringList inspectedHosts(const NetworkPolicy &policy);

struct RequestVerdict
{
    bool allowed = false;
    bool inspected = false; // false: the host's lists decided (see testHost)
    QString host;
    std::optional<NetworkRule> decidingRule;
    std::optional<Grant> egressGrant;
    QString reason;
};

// What the proxy started with `policy` would do with one request.
Result<RequestVerdict> testRequest(const NetworkPolicy &policy, const QString &folder,
                                   const QString &method, const QString &host, const QString &path);

} // namespace arizuko::policy
