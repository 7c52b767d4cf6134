#include "turns/turn_event_slice.h"

#include "store/query.h"
#include "store/store.h"

#include <QJsonDocument>
#include <algorithm>

namespace arizuko::turns {

Result<QList<TurnEventRecord>> eventsBefore(store::Store &store, const QString &turn,
                                            qint64 beforeSeq, int limit)
{
    // Newest first through the (turn, seq) key, so only `limit` rows are read.
    Result<QSqlQuery> query = store::execute(
        store.database(),
        QStringLiteral("SELECT seq, kind, json, at FROM turn_events WHERE turn = ? AND seq < ? "
                       "ORDER BY seq DESC LIMIT ?"),
        {turn, beforeSeq, limit});
    if (!query)
        return query.error();
    QList<TurnEventRecord> events;
    while (query->next())
        events << TurnEventRecord{turn, query->value(0).toLongLong(), query->value(1).toString(),
                                  QJsonDocument::fromJson(query->value(2).toByteArray()).object(),
                                  query->value(3).toString()};
    std::reverse(events.begin(), events.end());
    return events;
}

} // namespace arizuko::turns
