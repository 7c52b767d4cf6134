#pragma once

// The action lattice of grants: `*` covers everything, `admin` covers `interact`
// and every `mcp:<tool>`, `mcp:*` covers every `mcp:<tool>`.

#include "core/result.h"

#include <QStringView>

namespace arizuko::policy {

inline constexpr QStringView kEgressAction = u"egress";

bool isToolAction(QStringView action);

// True when a row granting `granted` also grants `requested`. Wildcard actions are
// elements of the lattice too, so the same test serves delegation (may a holder
// of `admin` hand out `mcp:*`? yes).
bool actionCovers(QStringView granted, QStringView requested);

// Accepts `*`, `mcp:*`, `mcp:<tool>` and plain lower-case words (`admin`,
// `interact`, `egress`, ...); the error names the accepted forms.
Result<void> validateAction(const QString &action);

} // namespace arizuko::policy
