// The tools about the folder's allowlist. A change applies from the next
// turn: this turn's proxy was started with a fixed list, on purpose.

#include "tools/tool_catalogue.h"

#include "policy/policy.h"

namespace arizuko::tools {
namespace {

ToolOutcome addRule(ToolContext &context, const QJsonObject &arguments, policy::RuleKind kind)
{
    const auto host = stringArgument(arguments, QStringLiteral("host"));
    if (!host)
        return toolError(host.error().message);
    const QString &folder = context.binding.folder;
    const auto added = context.policy.network().add(folder, *host, kind, folder);
    if (!added)
        return toolError(added.error().message);
    return {QStringLiteral("%1 %2 for %3%4; this applies from the folder's next turn")
                .arg(kind == policy::RuleKind::Allow ? QStringLiteral("allowed")
                                                     : QStringLiteral("denied"),
                     added->rule.target, folder,
                     added->created ? QString() : QStringLiteral(" (it already was)"))};
}

} // namespace

ToolOutcome networkList(ToolContext &context, const QJsonObject &)
{
    const auto resolved = context.policy.network().resolve(context.binding.folder);
    if (!resolved)
        return toolError(resolved.error().message);
    QStringList lines;
    if (resolved->allowAll)
        lines << QStringLiteral("every host is allowed (egress grant), except the denied ones");
    for (const policy::NetworkRule &rule : resolved->rules)
        lines << QStringLiteral("%1 %2 (from %3)")
                     .arg(policy::ruleKindName(rule.kind), rule.target,
                          rule.folder.isEmpty() ? QStringLiteral("the base folder") : rule.folder);
    if (lines.isEmpty())
        lines << QStringLiteral("no host is allowed");
    return {lines.join(QLatin1Char('\n'))};
}

ToolOutcome networkAllow(ToolContext &context, const QJsonObject &arguments)
{
    return addRule(context, arguments, policy::RuleKind::Allow);
}

ToolOutcome networkDeny(ToolContext &context, const QJsonObject &arguments)
{
    return addRule(context, arguments, policy::RuleKind::Deny);
}

} // namespace arizuko::tools
