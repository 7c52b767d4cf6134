#include "policy/network_rule.h"

using namespace Qt::StringLiterals;

namespace arizuko::policy {

QJsonObject toJson(const NetworkRule &rule)
{
    return QJsonObject{
        {u"id"_s, rule.id},
        {u"folder"_s, rule.folder},
        {u"target"_s, rule.target},
        {u"kind"_s, ruleKindName(rule.kind)},
        {u"created_at"_s, rule.createdAt},
        {u"created_by"_s, rule.createdBy},
    };
}

} // namespace arizuko::policy
