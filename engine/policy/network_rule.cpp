#include "policy/network_rule.h"

namespace arizuko::policy {

QJsonObject toJson(const NetworkRule &rule)
{
    return QJsonObject{
        {QStringLiteral("id"), rule.id},
        {QStringLiteral("folder"), rule.folder},
        {QStringLiteral("target"), rule.target},
        {QStringLiteral("kind"), ruleKindName(rule.kind)},
        {QStringLiteral("created_at"), rule.createdAt},
        {QStringLiteral("created_by"), rule.createdBy},
    };
}

} // namespace arizuko::policy
