#pragma once

// One row of the `acl` table and the answer authorize() gives about a call.

#include "core/result.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <optional>

namespace arizuko::policy {

enum class Effect
{
    Allow,
    Deny
};

// Param name -> glob, e.g. {"jid": "telegram:*"}; stored as a JSON object.
using GrantParams = QMap<QString, QString>;
// The arguments of one call as strings, e.g. {"jid": "telegram:42"}.
using CallParams = QMap<QString, QString>;
// The params of a call whose values the service compares without case (a
// connector's `case_insensitive` params: GitHub's owner and repo).
using CaseInsensitiveParams = QSet<QString>;

struct Grant
{
    qint64 id = 0;
    QString principal;
    QString action;
    QString scope;
    Effect effect = Effect::Allow;
    GrantParams params;
    // arizuko's claim condition; this desktop host issues no claims (see
    // docs/control-plane.md), so only an empty predicate is ever written.
    QString predicate;
    QString grantedBy;
    QString grantedAt;
    bool grantOption = false;
};

struct Decision
{
    bool allowed = false;
    // The row that decided: the deny that won, or an allow when none denied.
    std::optional<Grant> decidingGrant;
    QString reason;
};

QString effectName(Effect effect);
std::optional<Effect> effectFromName(QStringView name);

QString paramsToJson(const GrantParams &params);
Result<GrantParams> paramsFromJson(const QString &json);

// A principal containing `*` stands for many principals ("**", "corp/*").
bool isWildcardPrincipal(QStringView principal);

// "#12 allow corp/eng mcp:send_file on corp/** {jid=telegram:*}" for messages.
QString describeGrant(const Grant &grant);

// The row as the audit log and `arizukoctl --json` show it.
QJsonObject toJson(const Grant &grant);

} // namespace arizuko::policy
