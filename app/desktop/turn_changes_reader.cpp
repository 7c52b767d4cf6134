#include "turn_changes_reader.h"

#include "engine/workspace.h"
#include "transcript_items.h"

namespace arizuko::desktop {

QString changeNote(const history::FileChange &change)
{
    if (!change.why.isEmpty())
        return change.why;
    // The words of the CLI's note, naming the setting as the window does.
    return change.stored ? QString()
                         : TurnChangesReader::tr(
                               "over the history file limit: recorded by its size and time only");
}

TurnChangesReader::TurnChangesReader(engine::Workspace &workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{}

void TurnChangesReader::read(const turns::TurnRecord &turn)
{
    m_queue.append(turn);
    if (!m_reading)
        readNext();
}

void TurnChangesReader::readNext()
{
    m_reading = !m_queue.isEmpty();
    if (!m_reading)
        return;
    const QString turnId = m_queue.first().id;
    m_workspace.turnChanges(m_queue.takeFirst(), this,
                            [this, turnId](const Result<history::TurnChanges> &changes) {
                                const QJsonObject item = changesItem(turnId, changes);
                                if (!item.isEmpty())
                                    emit itemRead(item);
                                readNext();
                            });
}

} // namespace arizuko::desktop
