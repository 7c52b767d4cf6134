#pragma once

// Host names and IP literals as network rules hold them, and the matching rules
// of arizuko-egress (docs/egress.md), so what test() answers is what the proxy does.

#include "core/result.h"

#include <QString>

namespace arizuko::policy {

// A rule target as stored: lower-case punycode host name without a trailing dot
// (`*.x` becomes `x`), or a canonical IP literal without brackets. URLs, paths,
// ports, spaces and a bare `*` are refused with a message showing the accepted form.
Result<QString> normalizeRuleTarget(const QString &input);

// A host someone asks about (arizukoctl network test, the GUI's "test a host"):
// the same normal form, but a wildcard is not a host.
Result<QString> normalizeRequestHost(const QString &input);

bool isIpLiteral(QStringView normalized);

// Both arguments normalised. A rule with a dot covers itself and its subdomains,
// a dotless rule only itself, an IP literal only the identical literal.
bool ruleMatchesHost(QStringView rule, QStringView host);

} // namespace arizuko::policy
