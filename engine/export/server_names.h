#pragma once

// Where the desktop and arizuko spell the same thing differently: a folder's
// agent is `corp/eng` here and `folder:corp/eng` there; grant params are a
// JSON object here and `name=glob` words there.

#include "core/result.h"
#include "policy/grant.h"

#include <QString>
#include <optional>

namespace arizuko::manifest {

// The folder a desktop principal stands for, when it is a folder's agent
// (no ':' and no wildcard).
std::optional<QString> principalFolder(const QString &desktopPrincipal);
QString serverPrincipal(const QString &desktopPrincipal);
QString desktopPrincipal(const QString &serverPrincipal);

// The folder a grant scope is anchored at: `corp` for corp, corp/*, corp/**;
// nullopt for `**`.
std::optional<QString> scopeFolder(const QString &scope);

// {"jid": "telegram:*"} <-> "jid=telegram:*", several joined by one space in
// name order.
QString serverParams(const policy::GrantParams &params);
Result<policy::GrantParams> desktopParams(const QString &serverParams);

// True when `folder` is `root` or inside it; the root "" (the base) holds
// only itself.
bool inSubtree(const QString &folder, const QString &root);

} // namespace arizuko::manifest
