// arizukoctl history status|prune: what each folder home's history takes
// on disk, and its retention policy applied now (engine/history).

#include "commands.h"
#include "core/actors.h"
#include "folders/folders.h"
#include "history/turn_changes.h"
#include "history/turn_history_recorder.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <optional>

namespace arizuko::cli {
namespace {

struct FolderHistories
{
    history::SnapshotOptions options;
    QStringList folders; // the one asked for, or all
};

// `positional`: no folder (all of them) or one.
Result<FolderHistories> openHistories(store::Store &store, const QStringList &positional)
{
    FolderHistories found;
    const auto options = history::savedSnapshotOptions(store);
    if (!options)
        return options.error();
    found.options = *options;
    const folders::Folders folders(store, actors::cli);
    if (!positional.isEmpty()) {
        const auto exists = folders.exists(positional.first());
        if (!exists)
            return exists.error();
        if (!*exists)
            return makeError(QStringLiteral("folder.not-found"),
                             QStringLiteral("there is no folder '%1'").arg(positional.first()));
        found.folders << positional.first();
        return found;
    }
    const auto listed = folders.list();
    if (!listed)
        return listed.error();
    for (const folders::Folder &folder : *listed)
        found.folders << folder.path;
    return found;
}

QJsonObject useJson(const QString &folder, const history::HistoryUse &use)
{
    return {{QStringLiteral("folder"), folder},
            {QStringLiteral("bytes"), double(use.bytes)},
            {QStringLiteral("turns"), use.turns}};
}

// Parses `arguments` for `command` ([folder]), then withStore's prologue
// with the histories asked for: `use(store, found)` gives the exit code.
template<typename Use>
Exit withHistories(Context &context, const QString &command, const QString &description,
                   const QStringList &arguments, Use &&use)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             description,
             {{QStringLiteral("folder"), QStringLiteral("One folder; without it, every folder."),
               Positional::Kind::Optional}}},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const Result<FolderHistories> found = openHistories(store, parser.positionalArguments());
        if (!found)
            return context.failure(found.error());
        return use(store, *found);
    });
}

Exit status(Context &context, const QStringList &arguments)
{
    return withHistories(
        context, QStringLiteral("history status"),
        QStringLiteral("What each folder home's history takes on disk and the turns it "
                       "keeps,\nand the retention policy (history-keep-turns, "
                       "history-size-limit)."),
        arguments, [&](store::Store &store, const FolderHistories &found) {
            QList<std::pair<QString, history::HistoryUse>> rows;
            for (const QString &folder : found.folders) {
                const auto use = history::folderHistoryUse(store, folder, found.options);
                if (!use)
                    return context.failure(use.error());
                rows.append({folder, *use});
            }
            context.printList(
                rows, {QStringLiteral("FOLDER"), QStringLiteral("HISTORY")},
                [](const auto &row) { return useJson(row.first, row.second); },
                [&found](const auto &row) {
                    return QStringList{
                        row.first, history::historyUseText(row.second, found.options.retention)};
                });
            return Exit::Ok;
        });
}

Exit prune(Context &context, const QStringList &arguments)
{
    return withHistories(
        context, QStringLiteral("history prune"),
        QStringLiteral("Apply the retention policy now (the engine does after each turn):\n"
                       "the oldest turns' snapshots go, and with them their changes and "
                       "undo."),
        arguments, [&](store::Store &store, const FolderHistories &found) {
            QList<std::pair<QString, history::PruneReport>> rows;
            for (const QString &folder : found.folders) {
                const auto pruned = history::pruneFolderHistory(store, folder, found.options);
                if (!pruned)
                    return context.failure(pruned.error());
                rows.append({folder, *pruned});
            }
            context.printList(
                rows,
                {QStringLiteral("FOLDER"), QStringLiteral("DROPPED"), QStringLiteral("HISTORY")},
                [](const auto &row) {
                    QJsonObject object = useJson(row.first, row.second.after);
                    object.insert(QStringLiteral("dropped_turns"), row.second.turnsDropped);
                    object.insert(QStringLiteral("bytes_before"), double(row.second.before.bytes));
                    return object;
                },
                [&found](const auto &row) {
                    return QStringList{
                        row.first, QString::number(row.second.turnsDropped),
                        history::historyUseText(row.second.after, found.options.retention)};
                });
            return Exit::Ok;
        });
}

} // namespace

Exit runHistory(Context &context, const QStringList &arguments)
{
    return runSubcommand(context, QStringLiteral("history"), arguments,
                         {{QStringLiteral("status"), QStringLiteral("status [folder]"), status},
                          {QStringLiteral("prune"), QStringLiteral("prune [folder]"), prune}});
}

} // namespace arizuko::cli
