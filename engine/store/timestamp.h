#pragma once

// The one timestamp format of the store: UTC ISO-8601 with milliseconds
// ("2026-12-01T01:23:45.678Z"), which sorts as text in time order.

#include <QDateTime>
#include <QString>

namespace arizuko::store {

inline QString timestamp(const QDateTime &moment)
{
    return moment.toUTC().toString(Qt::ISODateWithMs);
}

inline QString nowTimestamp()
{
    return timestamp(QDateTime::currentDateTimeUtc());
}

} // namespace arizuko::store
