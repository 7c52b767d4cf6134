#include "policy/request_rule.h"

#include "policy/host_name.h"
#include "policy/network_rules.h"

#include <QSet>
#include <algorithm>

namespace arizuko::policy {
namespace {

bool isMethodCharacter(QChar c)
{
    return (c >= u'A' && c <= u'Z') || c == u'-' || c == u'_';
}

// `*` matches any run of characters within the segment.
bool segmentMatches(QStringView pattern, QStringView segment)
{
    qsizetype p = 0;
    qsizetype s = 0;
    qsizetype starAt = -1;
    qsizetype resumeAt = 0;
    while (s < segment.size()) {
        if (p < pattern.size() && pattern[p] == u'*') {
            starAt = p++;
            resumeAt = s;
        } else if (p < pattern.size() && pattern[p] == segment[s]) {
            ++p;
            ++s;
        } else if (starAt >= 0) {
            p = starAt + 1;
            s = ++resumeAt;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == u'*')
        ++p;
    return p == pattern.size();
}

bool segmentsMatch(const QList<QStringView> &pattern, qsizetype p, const QList<QStringView> &path,
                   qsizetype s)
{
    while (p < pattern.size()) {
        if (pattern[p] == u"**") {
            while (p < pattern.size() && pattern[p] == u"**")
                ++p;
            if (p == pattern.size())
                return true;
            for (qsizetype skip = s; skip <= path.size(); ++skip) {
                if (segmentsMatch(pattern, p, path, skip))
                    return true;
            }
            return false;
        }
        if (s == path.size() || !segmentMatches(pattern[p], path[s]))
            return false;
        ++p;
        ++s;
    }
    return s == path.size();
}

QList<QStringView> segmentsOf(QStringView path)
{
    return path.mid(1).split(u'/');
}

// A request rule as the proxy applies it, and the rule the user wrote that
// made it (the same rule, or the host allow entry an `allow * HOST /**` stands for).
struct EffectiveRule
{
    NetworkRule rule;
    std::optional<NetworkRule> source;
    bool byGrant = false;
};

QList<EffectiveRule> effectiveRules(const NetworkPolicy &policy)
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

QString folderLabel(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("the base folder ''")
                            : QStringLiteral("folder '%1'").arg(folder);
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
    const auto badPath = [&](const QString &why) {
        return makeError(QStringLiteral("policy.bad-path"),
                         QStringLiteral("'%1' is not a path pattern: %2").arg(path, why));
    };
    if (!match.path.startsWith(u'/'))
        return badPath(QStringLiteral("it starts with '/', as in /repos/acme/**"));
    for (const QChar c : std::as_const(match.path)) {
        if (c.unicode() <= 0x20 || c.unicode() == 0x7F || c == u'?' || c == u'#' || c == u'\\')
            return badPath(QStringLiteral("it has no blanks, control characters, '?', '#' or "
                                          "'\\' (a query is not matched)"));
    }
    for (const QStringView segment : segmentsOf(match.path)) {
        if (segment.contains(u"**") && segment != u"**")
            return badPath(QStringLiteral("'**' stands for whole path segments, as in /a/**/b"));
    }
    return match;
}

bool pathGlobMatches(QStringView pattern, QStringView path)
{
    if (!pattern.startsWith(u'/') || !path.startsWith(u'/'))
        return false;
    return segmentsMatch(segmentsOf(pattern), 0, segmentsOf(path), 0);
}

bool ruleMatchesMethod(const NetworkRule &rule, QStringView method)
{
    if (rule.methods == u"*")
        return true;
    const QList<QStringView> names = QStringView(rule.methods).split(u',');
    return names.contains(method);
}

QStringList proxyRequestRules(const NetworkPolicy &policy)
{
    QStringList rules;
    for (const EffectiveRule &effective : effectiveRules(policy)) {
        const QString text = ruleText(effective.rule);
        if (!rules.contains(text))
            rules << text;
    }
    return rules;
}

QStringList inspectedHosts(const NetworkPolicy &policy)
{
    QStringList hosts;
    for (const EffectiveRule &effective : effectiveRules(policy)) {
        if (!hosts.contains(effective.rule.target))
            hosts << effective.rule.target;
    }
    return hosts;
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
