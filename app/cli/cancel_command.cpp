// arizukoctl cancel: asks the engine running a turn to cancel it and waits
// for the turn to end (turns/remote_cancel.h).

#include "commands.h"
#include "subcommands.h"
#include "turn_records/turn_state.h"
#include "turns/remote_cancel.h"

#include <QCommandLineParser>

namespace arizuko::cli {

Exit runCancel(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {QStringLiteral("cancel"),
                           QStringLiteral("Cancel a queued or running turn."),
                           {{QStringLiteral("turn"),
                             QStringLiteral("The turn: its id, an id prefix or az-<name>.")}}},
                          arguments))
        return *stop;

    return withStore(context, [&](store::Store &store) {
        const Result<turns::TurnRecord> ended =
            turns::cancelRemoteTurn(store, parser.positionalArguments().first());
        if (!ended)
            return context.failure(ended.error());
        context.out() << ended->name << " " << turns::turnStateName(ended->state) << "\n";
        context.out().flush();
        return Exit::Ok;
    });
}

} // namespace arizuko::cli
