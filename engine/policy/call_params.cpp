#include "policy/call_params.h"

#include "policy/glob.h"
#include "policy/host_name.h"

#include <QLocale>
#include <cmath>

namespace arizuko::policy {
namespace {

// Past 2^53 a double no longer holds every integer: written as a double.
constexpr double exactIntegers = 9007199254740992.0;

QString numberText(double value)
{
    if (std::trunc(value) == value && std::abs(value) < exactIntegers)
        return QString::number(qint64(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace

bool isHostParam(QStringView name)
{
    return name == u"host";
}

Result<QString> normalizeCallParam(const QString &name, const QString &value)
{
    const QString trimmed = value.trimmed();
    if (!isHostParam(name))
        return trimmed;
    return normalizeRuleTarget(trimmed);
}

Result<CallParams> normalizeCallParams(const CallParams &params)
{
    CallParams normalized;
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        auto value = normalizeCallParam(it.key(), it.value());
        if (!value)
            return value.error();
        normalized.insert(it.key(), *value);
    }
    return normalized;
}

Result<CallParams> callParamsOf(const QJsonObject &arguments)
{
    CallParams params;
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        const QJsonValue &value = it.value();
        if (value.isString())
            params.insert(it.key(), value.toString());
        else if (value.isDouble())
            params.insert(it.key(), numberText(value.toDouble()));
        else if (value.isBool())
            params.insert(it.key(),
                          value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
        else if (value.isArray() || value.isObject())
            return makeError(QStringLiteral("policy.bad-argument"),
                             QStringLiteral("the argument '%1' is an array or object; a tool takes "
                                            "only strings, numbers and true or false")
                                 .arg(it.key()));
    }
    return params;
}

bool paramGlobMatches(const QString &name, const QString &glob, const QString &value, Effect effect,
                      bool caseInsensitive)
{
    if (!isHostParam(name))
        return caseInsensitive ? globMatches(glob.toCaseFolded(), value.toCaseFolded())
                               : globMatches(glob, value);
    const auto rule = normalizeRuleTarget(glob);
    if (!rule)
        return globMatches(glob.toLower(), value);
    if (effect == Effect::Allow)
        return ruleMatchesHost(*rule, value);
    return ruleMatchesHost(*rule, value) || ruleMatchesHost(value, *rule);
}

bool paramGlobCovers(const QString &name, const QString &held, const QString &wanted)
{
    if (!isHostParam(name))
        return globCovers(held, wanted);
    if (held == u"*")
        return true;
    const auto heldRule = normalizeRuleTarget(held);
    const auto wantedRule = normalizeRuleTarget(wanted);
    return heldRule && wantedRule && ruleMatchesHost(*heldRule, *wantedRule);
}

} // namespace arizuko::policy
