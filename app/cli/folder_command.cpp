// arizukoctl folder add|list|rm|move|gateway|network: the folder tree, the
// homes on disk, what a folder's turns may ask of the model, and what their
// proxies do with hosts on no allow entry.

#include "commands.h"
#include "core/actors.h"
#include "folders/folders.h"
#include "folders/model_settings.h"
#include "folders/network_settings.h"
#include "secrets/folder_move.h"
#include "store/store.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

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
    return withStore(context, [&](store::Store &store) {
        folders::Folders folders(store, actors::cli);
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
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser, {QStringLiteral("folder list"), QStringLiteral("List the folders.")},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        folders::Folders folders(store, actors::cli);
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
    });
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
    return withStore(context, [&](store::Store &store) {
        const Result<QStringList> removed =
            folders::Folders(store, actors::cli)
                .remove(parser.positionalArguments().first(), parser.isSet(recursive));
        if (!removed)
            return context.failure(removed.error());
        if (context.json())
            context.printJson(
                QJsonObject{{QStringLiteral("removed"), QJsonArray::fromStringList(*removed)}});
        else
            context.out() << "removed folder " << removed->join(QStringLiteral(", ")) << "\n";
        return Exit::Ok;
    });
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
    return withStore(context, [&](store::Store &store) {
        const Result<QStringList> moved =
            secrets::moveFolder(store, actors::cli, values[0], values[1]);
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
    });
}

// "on"/"off" set, "inherit" unsets; anything else is an error.
Result<std::optional<bool>> switchValue(const QString &value)
{
    if (value == QLatin1String("on"))
        return std::optional<bool>(true);
    if (value == QLatin1String("off"))
        return std::optional<bool>(false);
    if (value == QLatin1String("inherit"))
        return std::optional<bool>();
    return makeError(
        QStringLiteral("cli.bad-value"),
        QStringLiteral("--provider-web-search takes on, off or inherit, not '%1'").arg(value));
}

QJsonObject toJson(const folders::ModelSettings &settings)
{
    QJsonObject json;
    json.insert(QStringLiteral("models"),
                settings.models ? QJsonValue(QJsonArray::fromStringList(*settings.models))
                                : QJsonValue(QStringLiteral("default")));
    json.insert(QStringLiteral("provider_web_search"), settings.providerWebSearch.value_or(false));
    return json;
}

Exit gateway(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption models(
        QStringLiteral("models"),
        QStringLiteral("Model ids the folder's turns may ask for, comma-separated; an id ending in "
                       "'*' is a prefix. 'inherit' takes the parent's (or the default)."),
        QStringLiteral("list"));
    const QCommandLineOption webSearch(
        QStringLiteral("provider-web-search"),
        QStringLiteral("on: the model provider's own web search, limited to the folder's network "
                       "allowlist; off (the default) refuses it; inherit."),
        QStringLiteral("on|off|inherit"));
    parser.addOption(models);
    parser.addOption(webSearch);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("folder gateway"),
             QStringLiteral("Show or set what the folder's turns may ask of the model through the "
                            "model gateway:\nthe models, and the provider's web search. Unset "
                            "values are inherited from the parent folder."),
             {{QStringLiteral("folder"), QStringLiteral("The folder path.")}}},
            arguments))
        return *stop;
    const QString folder = parser.positionalArguments().first();
    return withStore(context, [&](store::Store &store) {
        // The folder's own settings: also refuses a folder that does not exist.
        auto own = folders::ownModelSettings(store, folder);
        if (!own)
            return context.failure(own.error());
        if (parser.isSet(models) || parser.isSet(webSearch)) {
            if (parser.isSet(models)) {
                const QString value = parser.value(models);
                own->models.reset();
                if (value != QLatin1String("inherit")) {
                    QStringList list;
                    for (const QString &model : value.split(QLatin1Char(',')))
                        if (!model.trimmed().isEmpty())
                            list << model.trimmed();
                    own->models = list;
                }
            }
            if (parser.isSet(webSearch)) {
                const auto value = switchValue(parser.value(webSearch));
                if (!value)
                    return context.failure(value.error());
                own->providerWebSearch = *value;
            }
            if (const Result<void> set =
                    folders::setModelSettings(store, folder, *own, actors::cli);
                !set)
                return context.failure(set.error());
        }
        const auto effective = folders::modelSettings(store, folder);
        if (!effective)
            return context.failure(effective.error());
        if (context.json()) {
            QJsonObject json = toJson(*effective);
            json.insert(QStringLiteral("folder"), folder);
            context.printJson(json);
        } else {
            context.out() << "models: "
                          << (effective->models ? effective->models->join(QStringLiteral(", "))
                                                : QStringLiteral("default (the agent's families)"))
                          << "\nprovider web search: "
                          << (effective->providerWebSearch.value_or(false) ? "on" : "off") << "\n";
        }
        return Exit::Ok;
    });
}

Exit network(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption unlisted(
        QStringLiteral("unlisted"),
        QStringLiteral("What a turn's proxy does with a host on no allow entry: deny (the "
                       "default) answers 403 at once; ask holds the request and asks the user "
                       "(the window, arizukoctl run, arizukoctl network pending); inherit."),
        QStringLiteral("deny|ask|inherit"));
    const QCommandLineOption timeout(
        QStringLiteral("ask-timeout"),
        QStringLiteral("Seconds a question waits before the request is denied (no-answer); "
                       "default 60; inherit."),
        QStringLiteral("seconds|inherit"));
    parser.addOption(unlisted);
    parser.addOption(timeout);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("folder network"),
             QStringLiteral("Show or set what the folder's turns do with hosts on no allow "
                            "entry.\nUnset values are inherited from the parent folder."),
             {{QStringLiteral("folder"), QStringLiteral("The folder path.")}}},
            arguments))
        return *stop;
    const QString folder = parser.positionalArguments().first();
    return withStore(context, [&](store::Store &store) {
        auto own = folders::ownNetworkSettings(store, folder);
        if (!own)
            return context.failure(own.error());
        if (parser.isSet(unlisted) || parser.isSet(timeout)) {
            if (parser.isSet(unlisted)) {
                const QString value = parser.value(unlisted);
                own->unlisted = folders::unlistedHostsFromName(value);
                if (!own->unlisted && value != QLatin1String("inherit"))
                    return context.failure(
                        makeError(QStringLiteral("cli.bad-value"),
                                  QStringLiteral("--unlisted takes deny, ask or inherit, not '%1'")
                                      .arg(value)));
            }
            if (parser.isSet(timeout)) {
                const QString value = parser.value(timeout);
                bool number = false;
                const int seconds = value.toInt(&number);
                if (!number && value != QLatin1String("inherit"))
                    return context.failure(
                        makeError(QStringLiteral("cli.bad-value"),
                                  QStringLiteral("--ask-timeout takes seconds or inherit, not '%1'")
                                      .arg(value)));
                own->askTimeout =
                    number ? std::optional(std::chrono::seconds(seconds)) : std::nullopt;
            }
            if (const Result<void> set =
                    folders::setNetworkSettings(store, folder, *own, actors::cli);
                !set)
                return context.failure(set.error());
        }
        const auto effective = folders::networkSettings(store, folder);
        if (!effective)
            return context.failure(effective.error());
        const QString mode = folders::unlistedHostsName(effective->unlistedOrDefault());
        const qint64 seconds = effective->askTimeoutOrDefault().count();
        if (context.json()) {
            context.printJson(QJsonObject{{QStringLiteral("folder"), folder},
                                          {QStringLiteral("unlisted_hosts"), mode},
                                          {QStringLiteral("ask_timeout_seconds"), seconds}});
        } else {
            context.out() << "unlisted hosts: " << mode << "\nquestion timeout: " << seconds
                          << " s\n";
        }
        return Exit::Ok;
    });
}

} // namespace

Exit runFolder(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("add"), QStringLiteral("add <folder> [--name NAME]"), add},
        {QStringLiteral("list"), QStringLiteral("list"), list},
        {QStringLiteral("rm"), QStringLiteral("rm <folder> [--recursive]"), remove},
        {QStringLiteral("move"), QStringLiteral("move <from> <to>"), move},
        {QStringLiteral("gateway"),
         QStringLiteral("gateway <folder> [--models LIST|inherit] "
                        "[--provider-web-search on|off|inherit]"),
         gateway},
        {QStringLiteral("network"),
         QStringLiteral("network <folder> [--unlisted deny|ask|inherit] "
                        "[--ask-timeout SECONDS|inherit]"),
         network},
    };
    return runSubcommand(context, QStringLiteral("folder"), arguments, subcommands);
}

} // namespace arizuko::cli
