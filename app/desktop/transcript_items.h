#pragma once

// What the transcript page draws, made from a turn's record and events:
// one JSON item per thing a person reads (the prompt, agent text rendered
// from markdown, a folded tool call, its output, an engine note, the turn's
// closing line). Everything but the rendered markdown is plain text.

#include "turn_records/turn_record.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace arizuko::desktop {

QJsonObject promptItem(const turns::TurnRecord &turn);
// Empty when the event is not shown in the transcript (timings, usage…).
QJsonObject transcriptItem(const turns::TurnEventRecord &event);
QJsonArray transcriptItems(const QList<turns::TurnEventRecord> &events);
// "done in 41.2 s · 63,104 tokens in, 334 out · $0.0031".
QJsonObject footerItem(const turns::TurnRecord &turn);

// The same transcript as markdown, for the clipboard.
QString transcriptMarkdown(const QList<turns::TurnRecord> &turns,
                           const QList<QList<turns::TurnEventRecord>> &events);

} // namespace arizuko::desktop
