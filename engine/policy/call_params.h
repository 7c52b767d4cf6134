#pragma once

// A tool call's arguments as the tool acts on them, and how a grant's param
// glob is matched against them: the one normalisation both sides use, so a
// grant decides on exactly what the tool then does.

#include "core/result.h"
#include "policy/grant.h"

#include <QJsonObject>
#include <QString>

namespace arizuko::policy {

// The param that names a host (network_allow, network_deny): its value is a
// network rule target, matched as a host, not as text.
bool isHostParam(QStringView name);

// Trimmed; a host param also in the rule form (normalizeRuleTarget: lower
// case, punycode, no trailing dot, `*.x` as `x`). A host that is not one is
// an error naming the problem.
Result<QString> normalizeCallParam(const QString &name, const QString &value);
Result<CallParams> normalizeCallParams(const CallParams &params);

// A call's arguments as the params its grants are matched on: every scalar,
// in one text per value (7, 7.0 and 7e0 are "7"; true is "true"), so a deny
// on `number=7` is not passed by sending the number instead of the string.
// An array or object is refused: no tool takes one, and no glob could be
// matched on it without a deny being passed by. A null is an absent param.
Result<CallParams> callParamsOf(const QJsonObject &arguments);

// Does a grant's param glob match the (normalised) value? A host glob that
// names a rule (`github.com`, `*.github.com`) is read as that rule, case
// folded: an allow matches a host rule it covers, a deny every host rule
// that overlaps it (a parent rule such as `com` too). Any other host glob
// (`*`) is matched on the host's text, case folded. Any other param is matched
// as a glob on the text, case folded on both sides when `caseInsensitive`.
bool paramGlobMatches(const QString &name, const QString &glob, const QString &value, Effect effect,
                      bool caseInsensitive = false);

// For delegation: does every value `wanted` can match also match `held`?
// Conservative like globCovers(): unprovable is false.
bool paramGlobCovers(const QString &name, const QString &held, const QString &wanted);

} // namespace arizuko::policy
