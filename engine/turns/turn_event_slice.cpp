#include "turns/turn_event_slice.h"

#include "store/query.h"
#include "store/store.h"

#include <QJsonDocument>
#include <algorithm>
#include <limits>

namespace arizuko::turns {

namespace {

// Through the (turn, seq) key, so only `limit` rows are read (of `kind`,
// when given, those of other kinds are passed over too).
Result<QList<TurnEventRecord>> slice(store::Store &store, const QString &turn, const QString &sql,
                                     qint64 seq, int limit, const QString &kind = {})
{
    Result<QSqlQuery> query = store::execute(store.database(), sql,
                                             kind.isEmpty() ? QVariantList{turn, seq, limit}
                                                            : QVariantList{turn, kind, seq, limit});
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

Result<QList<TurnEventRecord>> eventsOfKindBefore(store::Store &store, const QString &turn,
                                                  const QString &kind, qint64 beforeSeq, int limit)
{
    auto events = slice(store, turn,
                        QStringLiteral("SELECT seq, kind, json, at FROM turn_events WHERE turn = ? "
                                       "AND kind = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
                        beforeSeq, limit, kind);
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

TopicPage topicPageBefore(store::Store &store, const QStringList &turnIds, TopicCursor cursor,
                          PageSize size)
{
    TopicPage page;
    int events = 0;
    int turnsTaken = 0;
    while (cursor.hasEarlier() && events < size.events && turnsTaken < size.turns) {
        TopicSlice slice;
        slice.toEnd = cursor.seq == 0;
        if (slice.toEnd) {
            --cursor.turn;
            cursor.seq = std::numeric_limits<qint64>::max();
            ++turnsTaken;
        }
        slice.turn = cursor.turn;
        const int budget = size.events - events;
        // One more than fits tells whether the turn's start is reached.
        auto read = eventsBefore(store, turnIds.value(cursor.turn), cursor.seq, budget + 1);
        if (!read) {
            slice.error = read.error();
            page.slices.prepend(slice);
            cursor = {};
            break;
        }
        slice.fromStart = read->size() <= budget;
        if (!slice.fromStart)
            read->removeFirst();
        events += int(read->size());
        cursor.seq = slice.fromStart ? 0 : read->first().seq;
        slice.events = std::move(*read);
        page.slices.prepend(slice);
    }
    page.first = cursor;
    return page;
}

} // namespace arizuko::turns
