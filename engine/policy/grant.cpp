#include "policy/grant.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace arizuko::policy {

QString effectName(Effect effect)
{
    return effect == Effect::Allow ? QStringLiteral("allow") : QStringLiteral("deny");
}

std::optional<Effect> effectFromName(QStringView name)
{
    if (name == u"allow")
        return Effect::Allow;
    if (name == u"deny")
        return Effect::Deny;
    return std::nullopt;
}

QString paramsToJson(const GrantParams &params)
{
    QJsonObject object;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        object.insert(it.key(), it.value());
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

Result<GrantParams> paramsFromJson(const QString &json)
{
    if (json.trimmed().isEmpty())
        return GrantParams{};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8(), &parseError);
    if (!document.isObject())
        return makeError(
            QStringLiteral("policy.bad-params"),
            QStringLiteral("grant params '%1' are not a JSON object of name to glob").arg(json));
    GrantParams params;
    const QJsonObject object = document.object();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!it.value().isString())
            return makeError(QStringLiteral("policy.bad-params"),
                             QStringLiteral("grant param '%1' is not a string glob").arg(it.key()));
        params.insert(it.key(), it.value().toString());
    }
    return params;
}

bool isWildcardPrincipal(QStringView principal)
{
    return principal.contains(u'*');
}

QString describeGrant(const Grant &grant)
{
    QString text = QStringLiteral("#%1 %2 %3 %4 on %5")
                       .arg(QString::number(grant.id), effectName(grant.effect), grant.principal,
                            grant.action, grant.scope);
    if (!grant.params.isEmpty()) {
        QStringList pairs;
        for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it)
            pairs << it.key() + u'=' + it.value();
        text += QStringLiteral(" {") + pairs.join(u' ') + u'}';
    }
    if (grant.grantOption)
        text += QStringLiteral(" with grant option");
    return text;
}

QJsonObject toJson(const Grant &grant)
{
    QJsonObject params;
    for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it)
        params.insert(it.key(), it.value());
    return QJsonObject{
        {QStringLiteral("id"), grant.id},
        {QStringLiteral("principal"), grant.principal},
        {QStringLiteral("action"), grant.action},
        {QStringLiteral("scope"), grant.scope},
        {QStringLiteral("effect"), effectName(grant.effect)},
        {QStringLiteral("params"), params},
        {QStringLiteral("predicate"), grant.predicate},
        {QStringLiteral("granted_by"), grant.grantedBy},
        {QStringLiteral("granted_at"), grant.grantedAt},
        {QStringLiteral("grant_option"), grant.grantOption},
    };
}

} // namespace arizuko::policy
