#include "policy/network_rule.h"

namespace arizuko::policy {

QString folderLabel(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("the base folder ''")
                            : QStringLiteral("folder '%1'").arg(folder);
}

QJsonObject toJson(const NetworkRule &rule)
{
    QJsonObject object{
        {QStringLiteral("id"), rule.id},
        {QStringLiteral("folder"), rule.folder},
        {QStringLiteral("target"), rule.target},
        {QStringLiteral("kind"), ruleKindName(rule.kind)},
        {QStringLiteral("created_at"), rule.createdAt},
        {QStringLiteral("created_by"), rule.createdBy},
    };
    // A host rule's record stays as it always was.
    if (rule.isRequestRule()) {
        object.insert(QStringLiteral("methods"), rule.methods);
        object.insert(QStringLiteral("path"), rule.path);
    }
    return object;
}

QString ruleText(const NetworkRule &rule)
{
    if (!rule.isRequestRule())
        return ruleKindName(rule.kind) + u' ' + rule.target;
    return QStringList{ruleKindName(rule.kind), rule.methods, rule.target, rule.path}.join(u' ');
}

} // namespace arizuko::policy
