#include "policy/call_params.h"

#include "policy/glob.h"
#include "policy/host_name.h"

namespace arizuko::policy {

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

bool paramGlobMatches(const QString &name, const QString &glob, const QString &value, Effect effect)
{
    if (!isHostParam(name))
        return globMatches(glob, value);
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
