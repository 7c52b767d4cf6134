#include "turns/turn_event_slice.h"

#include "store/query.h"
#include "store/store.h"

#include <QJsonDocument>
#include <algorithm>

namespace arizuko::turns {

namespace {

// Through the (turn, seq) key, so only `limit` rows are read.
Result<QList<TurnEventRecord>> slice(store::Store &store, const QString &turn, const QString &sql,
                                     qint64 seq, int limit)
{
    Result<QSqlQuery> query = store::execute(store.database(), sql, {turn, seq, limit});
    if (!query)
        return query.error();
    QList<TurnEventRecord> events;
    while (query->next())
        events << TurnEventRecord{turn, query->value(0).toLongLong(), query->value(1).toString(),
                                  QJsonDocument::fromJson(query->value(2).toByteArray()).object(),
                                  query->value(3).toString()};
    return events;
}

} // namespace

Result<QList<TurnEventRecord>> eventsBefore(store::Store &store, const QString &turn,
                                            qint64 beforeSeq, int limit)
{
    // Newest first, then turned around.
    auto events = slice(store, turn,
                        QStringLiteral("SELECT seq, kind, json, at FROM turn_events WHERE turn = ? "
                                       "AND seq < ? ORDER BY seq DESC LIMIT ?"),
                        beforeSeq, limit);
    if (events)
        std::reverse(events->begin(), events->end());
    return events;
}

Result<QList<TurnEventRecord>> eventsAfter(store::Store &store, const QString &turn,
                                           qint64 afterSeq, int limit)
{
    return slice(store, turn,
                 QStringLiteral("SELECT seq, kind, json, at FROM turn_events WHERE turn = ? AND "
                                "seq > ? ORDER BY seq LIMIT ?"),
                 afterSeq, limit);
}

} // namespace arizuko::turns
