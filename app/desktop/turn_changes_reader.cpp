#include "turn_changes_reader.h"

#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "transcript_items.h"
#include "turns/runner_settings.h"

namespace arizuko::desktop {

Result<history::SnapshotOptions> savedSnapshotOptions(store::Store &store)
{
    const auto settings = turns::RunnerSettings::load(store);
    if (!settings)
        return settings.error();
    return history::snapshotOptions(*settings);
}

Result<history::TurnChanges> readTurnChanges(store::Store &store, const turns::TurnRecord &turn)
{
    const auto snapshot = savedSnapshotOptions(store);
    if (!snapshot)
        return snapshot.error();
    return history::turnChanges(store, turn, *snapshot, true);
}

Result<QString> readHistoryUse(store::Store &store, const QString &folder)
{
    const auto snapshot = savedSnapshotOptions(store);
    if (!snapshot)
        return snapshot.error();
    const auto use = history::folderHistoryUse(store, folder, *snapshot);
    if (!use)
        return use.error();
    return TurnChangesReader::tr("History of this folder's home: %1.")
        .arg(history::historyUseText(*use, snapshot->retention));
}

QString changeNote(const history::FileChange &change)
{
    if (!change.why.isEmpty())
        return change.why;
    // The words of the CLI's note, naming the setting as the window does.
    return change.stored ? QString()
                         : TurnChangesReader::tr(
                               "over the history file limit: recorded by its size and time only");
}

TurnChangesReader::TurnChangesReader(store::Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    // One reading at a time: a topic opens with several turns, and the
    // machine has other work.
    m_pool.setMaxThreadCount(1);
}

TurnChangesReader::~TurnChangesReader()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void TurnChangesReader::read(const turns::TurnRecord &turn)
{
    m_pool.start([this, turn] {
        const QJsonObject item = changesItem(turn.id, readTurnChanges(m_store, turn));
        if (item.isEmpty())
            return;
        // The destructor waits for this job before the object goes, and a
        // call queued for it then goes with it.
        QMetaObject::invokeMethod(
            this, [this, item] { emit itemRead(item); }, Qt::QueuedConnection);
    });
}

} // namespace arizuko::desktop
