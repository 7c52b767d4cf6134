// arizukoctl folder add|list|rm|move: the folder tree and the homes on disk.

#include "commands.h"
#include "folders/folders.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

const QString actor = QStringLiteral("user:cli");

QJsonObject toJson(const folders::Folder &folder, const QString &home)
{
    return {{QStringLiteral("folder"), folder.path},
            {QStringLiteral("name"), folder.name},
            {QStringLiteral("created_at"), folder.createdAt},
            {QStringLiteral("home"), home}};
}

Exit add(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("A display name."),
                                  QStringLiteral("name"));
    parser.addOption(name);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("folder add"),
             QStringLiteral("Add a folder; its parent must exist. Creates its home."),
             {{QStringLiteral("folder"), QStringLiteral("The folder path, e.g. corp/eng.")}}},
            arguments))
        return *stop;
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    folders::Folders folders(**opened, actor);
    const Result<folders::Folder> added =
        folders.add(parser.positionalArguments().first(), parser.value(name));
    if (!added)
        return context.failure(added.error());
    const Result<QString> home = folders.homePath(added->path);
    if (!home)
        return context.failure(home.error());
    if (context.json())
        context.printJson(toJson(*added, *home));
    else
        context.out() << "added folder " << added->path << " (home " << *home << ")\n";
    return Exit::Ok;
}

Exit list(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser, {QStringLiteral("folder list"), QStringLiteral("List the folders.")},
            arguments))
        return *stop;
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    folders::Folders folders(**opened, actor);
    const Result<QList<folders::Folder>> listed = folders.list();
    if (!listed)
        return context.failure(listed.error());
    QHash<QString, QString> homes;
    for (const folders::Folder &folder : *listed) {
        const Result<QString> home = folders.homePath(folder.path);
        if (!home)
            return context.failure(home.error());
        homes.insert(folder.path, *home);
    }
    context.printList(
        *listed,
        {QStringLiteral("FOLDER"), QStringLiteral("NAME"), QStringLiteral("CREATED"),
         QStringLiteral("HOME")},
        [&homes](const folders::Folder &folder) {
            return toJson(folder, homes.value(folder.path));
        },
        [&homes](const folders::Folder &folder) {
            return QStringList{folder.path, folder.name, folder.createdAt,
                               homes.value(folder.path)};
        });
    return Exit::Ok;
}

Exit remove(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption recursive(
        QStringLiteral("recursive"),
        QStringLiteral("Also remove subfolders and delete a home with files in it."));
    parser.addOption(recursive);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("folder rm"),
             QStringLiteral(
                 "Remove a folder with its topics, network rules, folder secrets and home.\n"
                 "Refused when it has subfolders or its home is not empty, unless --recursive."),
             {{QStringLiteral("folder"), QStringLiteral("The folder path.")}}},
            arguments))
        return *stop;
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    const Result<QStringList> removed =
        folders::Folders(**opened, actor)
            .remove(parser.positionalArguments().first(), parser.isSet(recursive));
    if (!removed)
        return context.failure(removed.error());
    if (context.json())
        context.printJson(
            QJsonObject{{QStringLiteral("removed"), QJsonArray::fromStringList(*removed)}});
    else
        context.out() << "removed folder " << removed->join(QStringLiteral(", ")) << "\n";
    return Exit::Ok;
}

Exit move(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("folder move"),
             QStringLiteral("Rename a folder and its subfolders everywhere (topics, turns, rules, "
                            "grants, routes,\nsecrets) and move its home. Refused while a turn "
                            "of them is queued or running."),
             {{QStringLiteral("from"), QStringLiteral("The folder path.")},
              {QStringLiteral("to"), QStringLiteral("Its new path; must not exist.")}}},
            arguments))
        return *stop;
    const QStringList values = parser.positionalArguments();
    const Result<std::unique_ptr<store::Store>> opened = openStore(context);
    if (!opened)
        return context.failure(opened.error());
    // The master key is fetched only when the subtree has secrets to re-seal.
    std::unique_ptr<secrets::SecretStore> secretStore;
    const auto moveSecrets = [&](const QString &from, const QString &to) -> Result<void> {
        auto secrets = secrets::SecretStore::open(**opened, actor);
        if (!secrets)
            return secrets.error();
        secretStore = std::move(secrets).value();
        return secretStore->moveFolder(from, to);
    };
    const Result<QStringList> moved =
        folders::Folders(**opened, actor).move(values[0], values[1], moveSecrets);
    if (!moved)
        return context.failure(moved.error());
    if (context.json())
        context.printJson(
            QJsonObject{{QStringLiteral("from"), values[0]},
                        {QStringLiteral("to"), values[1]},
                        {QStringLiteral("moved"), QJsonArray::fromStringList(*moved)}});
    else
        context.out() << "moved folder " << values[0] << " to " << values[1] << " ("
                      << moved->size() << " folders)\n";
    return Exit::Ok;
}

} // namespace

Exit runFolder(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("add"), QStringLiteral("add <folder> [--name NAME]"), add},
        {QStringLiteral("list"), QStringLiteral("list"), list},
        {QStringLiteral("rm"), QStringLiteral("rm <folder> [--recursive]"), remove},
        {QStringLiteral("move"), QStringLiteral("move <from> <to>"), move},
    };
    return runSubcommand(context, QStringLiteral("folder"), arguments, subcommands);
}

} // namespace arizuko::cli
