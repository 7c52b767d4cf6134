#pragma once

// Who the audit log names for a change (its `actor` column), in one place:
// the log is read by people (arizukoctl audit, the window's audit view) and
// by exports, so each actor keeps one spelling. In core, not audit, because
// the store writes its own migrations' entries and sits below the audit log.

#include <QLatin1String>

namespace arizuko::actors {

// A person, through a front-end.
inline constexpr QLatin1String cli{"user:cli"};
inline constexpr QLatin1String gui{"user:gui"};
// The window's export and import dialogs.
inline constexpr QLatin1String desktop{"user:desktop"};

// The engine's own parts.
inline constexpr QLatin1String turns{"system:turns"};
inline constexpr QLatin1String history{"system:history"};
inline constexpr QLatin1String store{"system:store"};
inline constexpr QLatin1String connectors{"system:connectors"};
inline constexpr QLatin1String shellEnv{"system:shell-env"};
inline constexpr QLatin1String firstRun{"system:first-run"};
// What an arizuko server's export seeds (the grants every folder starts with).
inline constexpr QLatin1String seed{"system:seed"};

// The turn a connector's Try outside any turn is recorded under: the
// front-end that asked.
inline constexpr QLatin1String cliTry{"cli"};
inline constexpr QLatin1String guiTry{"gui"};

} // namespace arizuko::actors
