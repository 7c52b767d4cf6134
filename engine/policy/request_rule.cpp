#include "policy/request_rule.h"

#include "policy/host_name.h"
#include "policy/network_rules.h"
#include "request_rules.hpp"

#include <QSet>
#include <algorithm>

namespace arizuko::policy {
namespace {

bool isMethodCharacter(QChar c)
{
    return (c >= u'A' && c <= u'Z') || c == u'-' || c == u'_';
}

// A request rule as the proxy applies it, and the rule the user wrote that
// made it (the same rule, or the host allow entry an `allow * HOST /**` stands for).
struct EffectiveRule
{
    NetworkRule rule;
    std::optional<NetworkRule> source;
    bool byGrant = false;
};

// `boundHosts` (hosts secrets are bound to) are inspected as a request
// rule's host is, with no rule of their own.
QList<EffectiveRule> effectiveRules(const NetworkPolicy &policy, const QStringList &boundHosts = {})
{
    QList<EffectiveRule> effective;
    QStringList requestHosts;
    for (const NetworkRule &rule : policy.rules) {
        if (!rule.isRequestRule())
            continue;
        effective << EffectiveRule{rule, rule, false};
        if (!requestHosts.contains(rule.target))
            requestHosts << rule.target;
    }
    for (const QString &host : boundHosts) {
        if (!requestHosts.contains(host))
            requestHosts << host;
    }
    QSet<QString> implied;
    const auto allowEverything = [&](const QString &host,
                                     const std::optional<NetworkRule> &source) {
        if (implied.contains(host))
            return;
        implied.insert(host);
        NetworkRule rule;
        rule.target = host;
        rule.kind = RuleKind::Allow;
        rule.methods = QStringLiteral("*");
        rule.path = QStringLiteral("/**");
        if (source)
            rule.folder = source->folder;
        effective << EffectiveRule{rule, source, !source};
    };
    for (const QString &host : std::as_const(requestHosts)) {
        if (policy.allowAll) {
            allowEverything(host, std::nullopt);
            continue;
        }
        for (const NetworkRule &entry : policy.rules) {
            if (entry.isRequestRule() || entry.kind != RuleKind::Allow)
                continue;
            // The narrower of the two is where both apply.
            if (ruleMatchesHost(entry.target, host))
                allowEverything(host, entry);
            else if (ruleMatchesHost(host, entry.target))
                allowEverything(entry.target, entry);
        }
    }
    return effective;
}

} // namespace

Result<RequestMatch> normalizeRequestMatch(const QString &methods, const QString &path)
{
    if (methods.isEmpty() && path.isEmpty())
        return RequestMatch{};
    RequestMatch match{methods.trimmed().toUpper(), path.trimmed()};
    if (match.methods.isEmpty())
        match.methods = QStringLiteral("*");
    if (match.path.isEmpty())
        match.path = QStringLiteral("/**");
    if (match.methods != u"*") {
        QStringList names;
        for (const QString &name : match.methods.split(u',')) {
            if (name.isEmpty() || !std::all_of(name.cbegin(), name.cend(), isMethodCharacter))
                return makeError(QStringLiteral("policy.bad-methods"),
                                 QStringLiteral("'%1' is not a list of methods: write '*' or "
                                                "names such as GET,HEAD separated by commas")
                                     .arg(methods));
            if (!names.contains(name))
                names << name;
        }
        match.methods = names.join(u',');
    }
    // The proxy's own parser: what it would refuse at its start is refused here.
    if (const auto glob = egress::PathGlob::parse(match.path.toStdString()); !glob)
        return makeError(QStringLiteral("policy.bad-path"),
                         QStringLiteral("'%1' is not a path pattern: %2 (as in /repos/acme/**)")
                             .arg(path, QString::fromStdString(glob.error())));
    return match;
}

bool pathGlobMatches(QStringView pattern, QStringView path)
{
    const auto glob = egress::PathGlob::parse(pattern.toString().toStdString());
    return glob && glob->matches(path.toString().toStdString());
}

bool ruleMatchesMethod(const NetworkRule &rule, QStringView method)
{
    if (rule.methods == u"*")
        return true;
    const QList<QStringView> names = QStringView(rule.methods).split(u',');
    return names.contains(method);
}

ProxyInspection proxyInspection(const NetworkPolicy &policy, const QStringList &boundHosts)
{
    ProxyInspection inspection;
    for (const EffectiveRule &effective : effectiveRules(policy, boundHosts)) {
        const QString text = ruleText(effective.rule);
        if (!inspection.rules.contains(text))
            inspection.rules << text;
        if (!inspection.hosts.contains(effective.rule.target))
            inspection.hosts << effective.rule.target;
    }
    for (const QString &host : boundHosts) {
        if (!inspection.hosts.contains(host))
            inspection.hosts << host;
    }
    return inspection;
}

QStringList proxyRequestRules(const NetworkPolicy &policy)
{
    return proxyInspection(policy).rules;
}

QStringList inspectedHosts(const NetworkPolicy &policy)
{
    return proxyInspection(policy).hosts;
}

Result<RequestVerdict> testRequest(const NetworkPolicy &policy, const QString &folder,
                                   const QString &method, const QString &host, const QString &path)
{
    auto hostVerdict = testHost(policy, folder, host);
    if (!hostVerdict)
        return hostVerdict.error();
    RequestVerdict verdict;
    verdict.host = hostVerdict->host;
    const QString requestMethod = method.isEmpty() ? QStringLiteral("GET") : method.toUpper();
    const QString requestPath = path.isEmpty() ? QStringLiteral("/") : path;
    if (!requestPath.startsWith(u'/') || requestPath.contains(u'?') || requestPath.contains(u'#'))
        return makeError(QStringLiteral("policy.bad-path"),
                         QStringLiteral("'%1' is not a request path: it starts with '/' and has "
                                        "no query or fragment")
                             .arg(path));
    const QList<EffectiveRule> rules = effectiveRules(policy);
    verdict.inspected = std::any_of(rules.cbegin(), rules.cend(), [&](const EffectiveRule &e) {
        return ruleMatchesHost(e.rule.target, verdict.host);
    });
    // The proxy's order: the host denylist, then (inspected) deny rules, then allow rules.
    const bool hostDenied = !hostVerdict->allowed && hostVerdict->decidingRule &&
                            hostVerdict->decidingRule->kind == RuleKind::Deny;
    if (!verdict.inspected || hostDenied) {
        verdict.allowed = hostVerdict->allowed;
        verdict.decidingRule = hostVerdict->decidingRule;
        verdict.egressGrant = hostVerdict->egressGrant;
        verdict.reason = hostVerdict->reason;
        return verdict;
    }
    const auto matching = [&](RuleKind kind) -> const EffectiveRule * {
        // The deepest first: the rule nearest the folder names it best.
        for (auto it = rules.crbegin(); it != rules.crend(); ++it) {
            if (it->rule.kind == kind && ruleMatchesHost(it->rule.target, verdict.host) &&
                ruleMatchesMethod(it->rule, requestMethod) &&
                pathGlobMatches(it->rule.path, requestPath))
                return &*it;
        }
        return nullptr;
    };
    const QString request = requestMethod + u' ' + verdict.host + requestPath;
    if (const EffectiveRule *deny = matching(RuleKind::Deny)) {
        verdict.decidingRule = deny->source;
        verdict.reason = QStringLiteral("%1 is denied by rule '%2' of %3")
                             .arg(request, ruleText(deny->rule), folderLabel(deny->rule.folder));
        return verdict;
    }
    if (const EffectiveRule *allow = matching(RuleKind::Allow)) {
        verdict.allowed = true;
        verdict.decidingRule = allow->source;
        if (allow->byGrant) {
            verdict.egressGrant = policy.egressGrant;
            verdict.reason =
                QStringLiteral("%1 is allowed by the egress grant %2 (no deny rule "
                               "refuses it)")
                    .arg(request,
                         policy.egressGrant ? describeGrant(*policy.egressGrant) : QString());
        } else if (allow->source && !allow->source->isRequestRule()) {
            verdict.reason =
                QStringLiteral("%1 is allowed by rule '%2' of %3 (a host allow "
                               "entry allows every request no deny rule refuses)")
                    .arg(request, ruleText(*allow->source), folderLabel(allow->source->folder));
        } else {
            verdict.reason =
                QStringLiteral("%1 is allowed by rule '%2' of %3")
                    .arg(request, ruleText(allow->rule), folderLabel(allow->rule.folder));
        }
        return verdict;
    }
    verdict.reason = QStringLiteral("%1 is denied: %2 is inspected and no rule of %3 or its "
                                    "ancestors allows this method and path (no-matching-rule)")
                         .arg(request, verdict.host, folderLabel(folder));
    return verdict;
}

} // namespace arizuko::policy
