#pragma once

// A row of `network_rules` and the answers built from them: a folder's resolved
// allow/deny lists (what the turn's egress proxy is started with) and a host test.

#include "policy/grant.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace arizuko::policy {

// A rule allows or denies its host: a grant's Effect, under the name the
// network rules have always given it.
using RuleKind = Effect;

struct NetworkRule
{
    qint64 id = 0;
    QString folder; // '' is the base every folder inherits
    QString target; // normalised host name or IP literal
    RuleKind kind = RuleKind::Allow;
    QString createdAt;
    QString createdBy;
    // Both '' for a host rule; else '*' or GET,HEAD… and a path glob
    // (request_rule.h): a request rule, which makes its host inspected.
    QString methods;
    QString path;

    bool isRequestRule() const { return !path.isEmpty(); }
};

struct NetworkPolicy
{
    // Deduplicated, in ancestry order ('' first): the proxy's --allow and --deny,
    // from host rules only (request rules are the proxy's --rule, request_rule.h).
    QStringList allow;
    QStringList deny;
    // The proxy's --allow-all, true only with an `egress` grant on the folder.
    bool allowAll = false;
    std::optional<Grant> egressGrant;
    // Every rule that contributed, with the folder it comes from (own vs inherited).
    QList<NetworkRule> rules;
};

struct HostVerdict
{
    bool allowed = false;
    QString host; // as normalised for matching
    // The rule that decided, naming its folder; empty when the egress grant or
    // the absence of any rule decided.
    std::optional<NetworkRule> decidingRule;
    std::optional<Grant> egressGrant;
    QString reason;
    // A rule by method and path names it: the proxy lets the host pass its
    // lists and judges each request (request_rule.h: testRequest).
    bool inspected = false;
};

inline QString ruleKindName(RuleKind kind)
{
    return effectName(kind);
}

// The rule as the proxy and the user read it: `allow github.com`, or
// `deny POST github.com /**/git-receive-pack`.
QString ruleText(const NetworkRule &rule);

// The row as the audit log and `arizukoctl --json` show it.
QJsonObject toJson(const NetworkRule &rule);
// A rule's folder as the answers of test() name it: "the base folder ''" or
// "folder 'corp'".
QString folderLabel(const QString &folder);
inline std::optional<RuleKind> ruleKindFromName(QStringView name)
{
    return effectFromName(name);
}

} // namespace arizuko::policy
