#pragma once

// A slice of a turn's stored events, for a view that draws a long turn from
// its end and earlier parts on request: reading all 10,000 events of a
// turn to show the last screen of them is what made opening a topic slow.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

// The last `limit` events of the turn whose seq is below `beforeSeq`,
// oldest first; fewer when the turn's start is reached.
Result<QList<TurnEventRecord>> eventsBefore(store::Store &store, const QString &turn,
                                            qint64 beforeSeq, int limit);
// eventsBefore counting only the events of `kind` ("network": a long turn's
// proxy log without the agent's output around it).
Result<QList<TurnEventRecord>> eventsOfKindBefore(store::Store &store, const QString &turn,
                                                  const QString &kind, qint64 beforeSeq, int limit);
// The first `limit` events of the turn whose seq is above `afterSeq`,
// oldest first: a long turn read from its start a page at a time.
Result<QList<TurnEventRecord>> eventsAfter(store::Store &store, const QString &turn,
                                           qint64 afterSeq, int limit);

// Where the shown part of a topic begins: the turn (an index in the
// topic's turns, oldest first) and of that turn the events from `seq` on
// (0: the whole turn, its prompt included). {turns.size(), 0}: nothing
// shown yet.
struct TopicCursor
{
    qsizetype turn = 0;
    qint64 seq = 0;

    bool hasEarlier() const { return turn > 0 || seq > 0; }
};

// A page: at most this many turns and this many events.
struct PageSize
{
    int turns = 5;
    int events = 200;
};

// One turn's part of a page, its events oldest first.
struct TopicSlice
{
    qsizetype turn = 0;
    QList<TurnEventRecord> events;
    bool fromStart = false; // the turn's first event is in it
    bool toEnd = false;     // so is its last
    // Its events could not be read: nothing earlier can be shown.
    std::optional<Error> error;
};

struct TopicPage
{
    QList<TopicSlice> slices; // oldest first
    TopicCursor first;        // where the page begins
};

// The page before `cursor` of the topic whose turns are `turnIds` (oldest
// first): the turns' events from the newest back until `size` is reached,
// a long turn only its tail.
TopicPage topicPageBefore(store::Store &store, const QStringList &turnIds, TopicCursor cursor,
                          PageSize size);

} // namespace arizuko::turns
