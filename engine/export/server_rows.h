#pragma once

// Desktop rows in arizuko's row shapes, built in one place so that the
// export and the import's matching of store rows agree on every key.

#include "export/manifest_document.h"
#include "policy/grant.h"

#include <QString>

namespace arizuko::manifest {

Row serverGroupRow(const QString &folder, const QString &createdAt, const QString &configJson);
Row serverRuleRow(const QString &folder, const QString &target, const QString &createdAt,
                  const QString &createdBy);
Row serverRouteRow(qint64 seq, const QString &match, const QString &target);
// Principals in desktop spelling; mapped to arizuko's (folder:<f>) here.
Row serverGrantRow(const QString &principal, const QString &action, const QString &scope,
                   const QString &effect, const policy::GrantParams &params,
                   const QString &grantedBy, const QString &grantedAt);
Row serverMembershipRow(const QString &child, const QString &parent, const QString &addedAt);

// A groups.config as Go's encoding/json writes it: compact, keys sorted,
// <, > and & escaped; empty for an empty object or no JSON object at all.
QString serverConfig(const QString &json);

} // namespace arizuko::manifest
