#pragma once

// The action lattice of grants: `*` covers everything, `admin` covers `interact`
// and every `mcp:<tool>`, `mcp:*` covers every `mcp:<tool>`. Connector
// operations are `ext:<service>:<operation>` actions, matched as globs whose
// segments are split at `:` (`ext:github:*:read`, `ext:github:**`); only `*`
// and an ext: glob cover them, never `admin` or `mcp:*`: a connector spends
// the user's key. `shell:env:<KEY>` puts a secret into the guest.

#include "core/result.h"

#include <QStringView>

namespace arizuko::policy {

inline constexpr QStringView kEgressAction = u"egress";

bool isToolAction(QStringView action);
bool isConnectorAction(QStringView action);
// The secret's key of a shell:env:<KEY> action; empty for any other action.
QString shellEnvKey(QStringView action);

// True when a row granting `granted` also grants `requested`. Wildcard actions are
// elements of the lattice too, so the same test serves delegation (may a holder
// of `admin` hand out `mcp:*`? yes).
bool actionCovers(QStringView granted, QStringView requested);

// Accepts `*`, `mcp:*`, `mcp:<tool>` and plain lower-case words (`admin`,
// `interact`, `egress`, ...); the error names the accepted forms.
Result<void> validateAction(const QString &action);

} // namespace arizuko::policy
