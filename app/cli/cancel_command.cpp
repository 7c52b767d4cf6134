// arizukoctl cancel: asks the engine running a turn to cancel it (through
// the store, which that engine polls) and waits for the turn to end.

#include "commands.h"
#include "store/data_dir.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turns/engine_process.h"
#include "turns/turn_records.h"

#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QThread>

namespace arizuko::cli {

Exit runCancel(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Cancel a queued or running turn."));
    parser.addPositionalArgument(QStringLiteral("turn"),
                                 QStringLiteral("The turn: its id, an id prefix or az-<name>."));
    if (const auto stop = context.parse(parser, QStringLiteral("cancel"), arguments))
        return *stop;
    if (parser.positionalArguments().size() != 1)
        return context.usageError(QStringLiteral("cancel: expected one turn"));

    auto store = store::Store::open(store::resolveDataDir(context.options().dataDir));
    if (!store)
        return context.failure(store.error());
    turns::TurnRecords records(**store);
    const auto turn = records.find(parser.positionalArguments().first());
    if (!turn)
        return context.failure(turn.error());
    if (turns::isTerminal(turn->state))
        return context.failure(QStringLiteral("turn %1 already ended (%2)")
                                   .arg(turn->name, turns::turnStateName(turn->state)));
    const turns::EngineProcess owner{turn->enginePid, turn->engineStarted};
    if (!owner.isAlive())
        return context.failure(
            QStringLiteral("the engine that ran turn %1 is gone (pid %2); the next engine start "
                           "reaps its VM, network and proxy and marks it interrupted")
                .arg(turn->name)
                .arg(turn->enginePid));
    if (const Result<void> requested = records.requestCancel(turn->id, store::nowTimestamp());
        !requested)
        return context.failure(requested.error());

    // The owner polls for requests every 250 ms and tears down at once.
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        const auto now = records.find(turn->id);
        if (now && turns::isTerminal(now->state)) {
            context.out() << turn->name << " " << turns::turnStateName(now->state) << "\n";
            context.out().flush();
            return Exit::Ok;
        }
        QThread::msleep(50);
    }
    return context.failure(
        QStringLiteral("asked to cancel turn %1, but it has not ended within 10 s")
            .arg(turn->name));
}

} // namespace arizuko::cli
