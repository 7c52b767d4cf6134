// arizukoctl turn changes|undo: what a turn changed in its folder's home,
// from the home's history (engine/history), and undoing it. Names and diffs
// are the guest's: printed inert (terminal_text.h), --json too.

#include "commands.h"
#include "core/actors.h"
#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "subcommands.h"
#include "terminal_text.h"
#include "turn_records/turn_records.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

struct TurnHistory
{
    turns::TurnRecord turn;
    history::SnapshotOptions options;
    std::optional<history::HomeHistory> history;
};

// The turn and the history of its folder's home.
Result<TurnHistory> openTurnHistory(store::Store &store, const QString &reference)
{
    TurnHistory found;
    const auto turn = turns::TurnRecords(store).find(reference);
    if (!turn)
        return turn.error();
    found.turn = *turn;
    const auto options = history::savedSnapshotOptions(store);
    if (!options)
        return options.error();
    found.options = *options;
    auto history = history::openTurnHistory(store, found.turn, found.options);
    if (!history)
        return history.error();
    found.history.emplace(std::move(*history));
    return found;
}

QString kindMark(history::ChangeKind kind)
{
    switch (kind) {
    case history::ChangeKind::Added:
        return QStringLiteral("A");
    case history::ChangeKind::Deleted:
        return QStringLiteral("D");
    case history::ChangeKind::Skipped:
        return QStringLiteral("S");
    case history::ChangeKind::Modified:
        break;
    }
    return QStringLiteral("M");
}

QJsonObject changeJson(const history::FileChange &change, bool withDiff)
{
    QJsonObject object{{QStringLiteral("path"), change.path},
                       {QStringLiteral("change"), history::changeKindName(change.kind)},
                       {QStringLiteral("stored"), change.stored}};
    if (!change.why.isEmpty())
        object.insert(QStringLiteral("why"), change.why);
    if (withDiff)
        object.insert(QStringLiteral("diff"), change.diff);
    if (change.diffOmitted)
        object.insert(QStringLiteral("diff_omitted"), true);
    return object;
}

Exit changes(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("turn changes");
    QCommandLineParser parser;
    const QCommandLineOption diff(QStringLiteral("diff"), QStringLiteral("Show unified diffs."));
    parser.addOption(diff);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "The files a turn added (A), modified (M) and deleted (D) in its folder's home,\n"
                 "and the names the history skipped (S), from the home's history."),
             {{QStringLiteral("turn"), QStringLiteral("Turn id or name.")}}},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const auto found = openTurnHistory(store, parser.positionalArguments().first());
        if (!found)
            return context.failure(found.error());
        const auto changes =
            history::turnChanges(store, found->turn, found->options, parser.isSet(diff));
        if (!changes)
            return context.failure(changes.error());
        if (context.json()) {
            QJsonArray files;
            for (const history::FileChange &change : changes->files)
                files.append(changeJson(change, parser.isSet(diff)));
            QJsonArray overlapping;
            for (const history::OverlappingTurn &other : changes->overlapping)
                overlapping.append(QJsonObject{{QStringLiteral("turn"), other.turnId},
                                               {QStringLiteral("name"), other.name},
                                               {QStringLiteral("ended"), other.ended}});
            context.printJson(
                QJsonObject{{QStringLiteral("turn"), found->turn.id},
                            {QStringLiteral("folder"), found->turn.folder},
                            {QStringLiteral("files"), files},
                            {QStringLiteral("overlapping"), overlapping},
                            {QStringLiteral("notes"), QJsonArray::fromStringList(changes->notes)}});
            return Exit::Ok;
        }
        for (const QString &note : changes->notes)
            context.out() << "note: " << inertLine(note) << "\n";
        // Both turns wrote the one home: each one's changes may hold the other's.
        for (const history::OverlappingTurn &other : changes->overlapping)
            context.out() << "note: turn " << inertLine(other.name)
                          << " of this home ran at the same time; its writes may be among these "
                             "changes\n";
        for (const history::FileChange &change : changes->files) {
            context.out() << kindMark(change.kind) << " " << inertLine(change.path);
            if (!change.why.isEmpty())
                context.out() << " (" << inertLine(change.why) << ")";
            if (!change.stored && change.why.isEmpty())
                context.out() << " (over the history-file-limit: recorded by size and time)";
            else if (!change.stored)
                context.out() << " (recorded by size and time)";
            context.out() << "\n";
        }
        if (parser.isSet(diff)) {
            for (const history::FileChange &change : changes->files)
                context.out() << (change.diffOmitted
                                      ? QStringLiteral("(no diff for %1: past the cap on diffs)\n")
                                            .arg(inertLine(change.path))
                                      : inertForTerminal(change.diff));
        }
        if (changes->files.isEmpty())
            context.out() << "the turn changed no file\n";
        return Exit::Ok;
    });
}

void printUndo(Context &context, const history::UndoReport &report)
{
    for (const QString &path : report.restored)
        context.out() << (report.applied ? "restored " : "restore ") << inertLine(path) << "\n";
    for (const history::UndoConflict &conflict : report.conflicts)
        context.out() << "conflict " << inertLine(conflict.path) << ": " << inertLine(conflict.why)
                      << "\n";
    context.out().flush();
}

Exit undo(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("turn undo");
    QCommandLineParser parser;
    const QCommandLineOption yes(QStringLiteral("yes"), QStringLiteral("Undo without asking."));
    const QCommandLineOption force(QStringLiteral("force"),
                                   QStringLiteral("Restore files changed since the turn too."));
    parser.addOptions({yes, force});
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Restore the files a turn changed to their state before it. A file changed\n"
                 "since (by a later turn or you) is a conflict and left alone unless --force.\n"
                 "Lists the files and asks first, unless --yes. Recorded in the home's history\n"
                 "and in the audit log (kind turn.undo)."),
             {{QStringLiteral("turn"), QStringLiteral("Turn id or name.")}}},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        auto found = openTurnHistory(store, parser.positionalArguments().first());
        if (!found)
            return context.failure(found.error());
        const history::UndoMode mode =
            parser.isSet(force) ? history::UndoMode::Force : history::UndoMode::Apply;
        if (!parser.isSet(yes)) {
            const auto plan = history::undoTurn(store, found->turn, history::UndoMode::Plan,
                                                found->options, actors::cli);
            if (!plan)
                return context.failure(plan.error());
            printUndo(context, *plan);
            if (mode == history::UndoMode::Force && !plan->conflicts.isEmpty())
                context.out() << "--force: the conflicts above are restored too\n";
            if (!confirmed(context, QStringLiteral("Undo turn %1?").arg(found->turn.name)))
                return context.failure(
                    QStringLiteral("not undone: confirm on a terminal or pass --yes"));
        }
        const auto report =
            history::undoTurn(store, found->turn, mode, found->options, actors::cli);
        if (!report)
            return context.failure(report.error());
        if (context.json()) {
            context.printJson(history::undoReportJson(*report));
        } else {
            printUndo(context, *report);
            if (!report->conflicts.isEmpty())
                context.out()
                    << report->conflicts.size()
                    << " file(s) left alone; --force restores those changed since the turn\n";
        }
        return report->conflicts.isEmpty() ? Exit::Ok : Exit::Failed;
    });
}

} // namespace

Exit runTurn(Context &context, const QStringList &arguments)
{
    return runSubcommand(
        context, QStringLiteral("turn"), arguments,
        {{QStringLiteral("changes"), QStringLiteral("changes <turn> [--diff]"), changes},
         {QStringLiteral("undo"), QStringLiteral("undo <turn> [--yes] [--force]"), undo}});
}

} // namespace arizuko::cli
