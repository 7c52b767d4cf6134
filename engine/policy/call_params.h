#pragma once

// A tool call's arguments as the tool acts on them, and how a grant's param
// glob is matched against them: the one normalisation both sides use, so a
// grant decides on exactly what the tool then does.

#include "core/result.h"
#include "policy/grant.h"

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

// Does a grant's param glob match the (normalised) value? A host glob that
// names a rule (`github.com`, `*.github.com`) is read as that rule, case
// folded: an allow matches a host rule it covers, a deny every host rule
// that overlaps it (a parent rule such as `com` too). Any other host glob
// (`*`) is matched on the host's text, case folded.
bool paramGlobMatches(const QString &name, const QString &glob, const QString &value,
                      Effect effect);

// For delegation: does every value `wanted` can match also match `held`?
// Conservative like globCovers(): unprovable is false.
bool paramGlobCovers(const QString &name, const QString &held, const QString &wanted);

} // namespace arizuko::policy
