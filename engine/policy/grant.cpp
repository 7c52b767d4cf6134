#include "policy/grant.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace arizuko::policy {

QString effectName(Effect effect)
{
    return effect == Effect::Allow ? u"allow"_s : u"deny"_s;
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
        return makeError(u"policy.bad-params"_s,
                         u"grant params '%1' are not a JSON object of name to glob"_s.arg(json));
    GrantParams params;
    const QJsonObject object = document.object();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!it.value().isString())
            return makeError(u"policy.bad-params"_s,
                             u"grant param '%1' is not a string glob"_s.arg(it.key()));
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
    QString text = u"#%1 %2 %3 %4 on %5"_s.arg(QString::number(grant.id), effectName(grant.effect),
                                               grant.principal, grant.action, grant.scope);
    if (!grant.params.isEmpty()) {
        QStringList pairs;
        for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it)
            pairs << it.key() + u'=' + it.value();
        text += u" {"_s + pairs.join(u' ') + u'}';
    }
    if (grant.grantOption)
        text += u" with grant option"_s;
    return text;
}

QJsonObject toJson(const Grant &grant)
{
    QJsonObject params;
    for (auto it = grant.params.cbegin(); it != grant.params.cend(); ++it)
        params.insert(it.key(), it.value());
    return QJsonObject{
        {u"id"_s, grant.id},
        {u"principal"_s, grant.principal},
        {u"action"_s, grant.action},
        {u"scope"_s, grant.scope},
        {u"effect"_s, effectName(grant.effect)},
        {u"params"_s, params},
        {u"predicate"_s, grant.predicate},
        {u"granted_by"_s, grant.grantedBy},
        {u"granted_at"_s, grant.grantedAt},
        {u"grant_option"_s, grant.grantOption},
    };
}

} // namespace arizuko::policy
