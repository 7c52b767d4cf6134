#include "turns/queued_turn.h"

#include "core/actors.h"
#include "folders/folders.h"
#include "store/timestamp.h"

#include <QUuid>

namespace arizuko::turns {

Result<TurnRecord> recordQueuedTurn(store::Store &store, TurnRecords &records,
                                    const TurnRequest &request, const EngineProcess &engine)
{
    const auto exists = folders::Folders(store, actors::turns).exists(request.folder);
    if (!exists)
        return exists.error();
    if (!*exists)
        return makeError(QStringLiteral("turns.no-folder"),
                         QStringLiteral("folder '%1' does not exist (create it with "
                                        "`arizukoctl folder add %1`)")
                             .arg(request.folder));
    if (request.prompt.trimmed().isEmpty())
        return makeError(
            QStringLiteral("turns.empty-prompt"),
            QStringLiteral("a turn needs a prompt or, for the command agent, a command"));

    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    TurnRecord record;
    record.id = id;
    record.name = QStringLiteral("az-") + id.left(8);
    record.folder = request.folder;
    record.topic = request.topic;
    record.agent = agentKindName(request.agent);
    record.prompt = request.prompt;
    record.state = TurnState::Queued;
    record.queuedAt = store::nowTimestamp();
    record.enginePid = engine.pid;
    record.engineStarted = engine.started;
    if (const Result<void> inserted = records.insert(record); !inserted)
        return inserted.error();
    return record;
}

} // namespace arizuko::turns
