#pragma once

// A turn's changes in its folder's home, read from the home's history
// (engine/history) for the window: the Changes tab and the transcript's
// Changes block. The reading opens a git repository and makes diffs, so the
// workspace runs it on a worker, never on the GUI thread.

#include "history/home_history.h"
#include "turn_records/turn_record.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {
// What the window says beside a changed file, in the Changes tab and the
// transcript alike: why the history skipped its name, or that it holds the
// file by its size and time only; empty for any other file.
QString changeNote(const history::FileChange &change);

// Reads turns' changes one at a time through the workspace and hands each
// back as the transcript page's Changes item (transcript_items.h).
class TurnChangesReader final : public QObject
{
    Q_OBJECT

public:
    explicit TurnChangesReader(engine::Workspace &workspace, QObject *parent = nullptr);

    void read(const turns::TurnRecord &turn);

signals:
    // Not emitted for a turn whose home has no history of it (yet).
    void itemRead(const QJsonObject &item);

private:
    void readNext();

    engine::Workspace &m_workspace;
    // One reading at a time: a topic opens with several turns, and the
    // machine has other work.
    QList<turns::TurnRecord> m_queue;
    bool m_reading = false;
};

} // namespace arizuko::desktop
