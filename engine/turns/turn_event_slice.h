#pragma once

// A slice of a turn's stored events, for a view that draws a long turn from
// its end and earlier parts on request: reading all 10,000 events of a
// turn to show the last screen of them is what made opening a topic slow.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QList>
#include <QString>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

// The last `limit` events of the turn whose seq is below `beforeSeq`,
// oldest first; fewer when the turn's start is reached.
Result<QList<TurnEventRecord>> eventsBefore(store::Store &store, const QString &turn,
                                            qint64 beforeSeq, int limit);
// The first `limit` events of the turn whose seq is above `afterSeq`,
// oldest first: a long turn read from its start a page at a time.
Result<QList<TurnEventRecord>> eventsAfter(store::Store &store, const QString &turn,
                                           qint64 afterSeq, int limit);

} // namespace arizuko::turns
