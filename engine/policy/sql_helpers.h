#pragma once

// Small pieces every policy table's SQL shares (errors: store/query.h).

#include <QString>

namespace arizuko::policy {

// QtSql binds a null QString as SQL NULL; the policy columns are NOT NULL text.
inline QString notNull(const QString &text)
{
    return text.isNull() ? QStringLiteral("") : text;
}

} // namespace arizuko::policy
