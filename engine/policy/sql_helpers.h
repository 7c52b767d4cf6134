#pragma once

// Small pieces every policy table's SQL shares.

#include "core/result.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QString>

namespace arizuko::policy {

inline Error storeError(const QSqlQuery &query, const QString &what)
{
    return makeError(QStringLiteral("policy.store"),
                     QStringLiteral("cannot %1: %2").arg(what, query.lastError().text()));
}

// QtSql binds a null QString as SQL NULL; the policy columns are NOT NULL text.
inline QString notNull(const QString &text)
{
    return text.isNull() ? QStringLiteral("") : text;
}

} // namespace arizuko::policy
