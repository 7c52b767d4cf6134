#pragma once

// What the transcript page draws, made from a turn's record and events:
// one JSON item per thing a person reads (the prompt, agent text rendered
// from markdown, a folded tool call, its output, an engine note, the turn's
// closing line, the files it changed). Everything but the rendered markdown
// is plain text; the page highlights code itself (resources/transcript/code.js).

#include "core/result.h"
#include "history/home_history.h"
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
// The files the turn changed in its home, each with its diff, as the page's
// Changes block; empty when the home's history has nothing of the turn (no
// history yet, or its snapshot after not recorded yet).
QJsonObject changesItem(const QString &turnId, const Result<history::TurnChanges> &changes);

// The same transcript as markdown, for the clipboard.
QString transcriptMarkdown(const QList<turns::TurnRecord> &turns,
                           const QList<QList<turns::TurnEventRecord>> &events);

} // namespace arizuko::desktop
