#pragma once

// A running turn's events, made up for the benchmarks that feed the window:
// text (every other one with a fenced Python block), a tool call (Bash,
// Edit and Write in turn), its result and a network decision, in turn.

#include "turn_records/turn_record.h"

#include <QList>

namespace arizuko::desktop {

// A turn of folder/topic in `state`, queued now (and started, unless
// queued), for a test or benchmark to store.
turns::TurnRecord syntheticTurn(const QString &folder, const QString &topic, turns::TurnState state,
                                const QString &agent = QStringLiteral("command"));

// `count` events of `turn` numbered from `firstSeq`.
QList<turns::TurnEventRecord> syntheticEvents(const QString &turn, int count, qint64 firstSeq = 1);

} // namespace arizuko::desktop
