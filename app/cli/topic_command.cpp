// arizukoctl topic add|list|fork|rename|rm: threads inside a folder, one agent
// session each.

#include "agent/topic_fork.h"
#include "commands.h"
#include "core/actors.h"
#include "folders/topics.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

QJsonObject toJson(const folders::Topic &topic)
{
    return {{QStringLiteral("folder"), topic.folder},
            {QStringLiteral("topic"), topic.name},
            {QStringLiteral("session_id"), topic.sessionId},
            {QStringLiteral("parent_topic"),
             topic.parentTopic.isEmpty() ? QJsonValue() : topic.parentTopic},
            {QStringLiteral("forked_at"), topic.forkedAt.isEmpty() ? QJsonValue() : topic.forkedAt},
            {QStringLiteral("created_at"), topic.createdAt}};
}

// Parses `arguments` as `line` says, opens the store and runs `change`,
// printing the topic it returns.
template<typename Change>
Exit changeTopic(Context &context, const CommandLine &line, const QStringList &arguments,
                 Change change)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(parser, line, arguments))
        return *stop;
    QStringList values = parser.positionalArguments();
    while (values.size() < line.positionals.size())
        values << QString();
    return withStore(context, [&](store::Store &store) {
        const Result<folders::Topic> topic = change(store, values);
        if (!topic)
            return context.failure(topic.error());
        if (context.json())
            context.printJson(toJson(*topic));
        else
            context.out() << "topic " << topic->name << " in " << topic->folder << ", session "
                          << topic->sessionId
                          << (topic->parentTopic.isEmpty()
                                  ? QString()
                                  : QStringLiteral(", forked from ") + topic->parentTopic)
                          << "\n";
        return Exit::Ok;
    });
}

Exit add(Context &context, const QStringList &arguments)
{
    return changeTopic(context,
                       {QStringLiteral("topic add"),
                        QStringLiteral("Add a topic with a new session."),
                        {{QStringLiteral("folder"), QStringLiteral("folder")},
                         {QStringLiteral("topic"), QStringLiteral("topic")}}},
                       arguments, [](store::Store &store, const QStringList &values) {
                           return folders::Topics(store, actors::cli).add(values[0], values[1]);
                       });
}

Exit fork(Context &context, const QStringList &arguments)
{
    return changeTopic(
        context,
        {QStringLiteral("topic fork"),
         QStringLiteral("Fork a topic: a new session that records the topic it came from.\n"
                        "The new name defaults to <topic>-fork, <topic>-fork-2, ..."),
         {{QStringLiteral("folder"), QStringLiteral("folder")},
          {QStringLiteral("topic"), QStringLiteral("topic")},
          {QStringLiteral("new-name"), QStringLiteral("new-name"), Positional::Kind::Optional}}},
        arguments,
        [&context](store::Store &store, const QStringList &values) -> Result<folders::Topic> {
            const auto forked =
                agent::forkTopic(store, actors::cli, values[0], values[1], values[2]);
            if (!forked)
                return forked.error();
            if (forked->copyError)
                context.err() << "arizukoctl: topic fork: the conversation was not copied ("
                              << forked->copyError->message
                              << "); the fork's first turn starts afresh\n";
            return forked->topic;
        });
}

Exit rename(Context &context, const QStringList &arguments)
{
    return changeTopic(
        context,
        {QStringLiteral("topic rename"),
         QStringLiteral("Rename a topic; its session stays."),
         {{QStringLiteral("folder"), QStringLiteral("folder")},
          {QStringLiteral("topic"), QStringLiteral("topic")},
          {QStringLiteral("new-name"), QStringLiteral("new-name")}}},
        arguments, [](store::Store &store, const QStringList &values) {
            return folders::Topics(store, actors::cli).rename(values[0], values[1], values[2]);
        });
}

Exit remove(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("topic rm"),
             QStringLiteral("Remove a topic with its messages, turns and their events.\n"
                            "Refused while one of its turns is queued or running."),
             {{QStringLiteral("folder"), QStringLiteral("The folder.")},
              {QStringLiteral("topic"), QStringLiteral("The topic.")}}},
            arguments))
        return *stop;
    const QStringList values = parser.positionalArguments();
    return withStore(context, [&](store::Store &store) {
        if (const Result<void> removed =
                folders::Topics(store, actors::cli).remove(values[0], values[1]);
            !removed)
            return context.failure(removed.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("folder"), values[0]},
                                          {QStringLiteral("removed"), values[1]}});
        else
            context.out() << "removed topic " << values[1] << " from " << values[0] << "\n";
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {QStringLiteral("topic list"),
                           QStringLiteral("List the topics of a folder, or of every folder."),
                           {{QStringLiteral("folder"), QStringLiteral("The folder (optional)."),
                             Positional::Kind::Optional}}},
                          arguments))
        return *stop;
    const QStringList values = parser.positionalArguments();
    return withStore(context, [&](store::Store &store) {
        const Result<QList<folders::Topic>> listed =
            folders::Topics(store, actors::cli).list(values.value(0));
        if (!listed)
            return context.failure(listed.error());
        context.printList(
            *listed,
            {QStringLiteral("FOLDER"), QStringLiteral("TOPIC"), QStringLiteral("SESSION"),
             QStringLiteral("FORKED FROM"), QStringLiteral("CREATED")},
            [](const folders::Topic &topic) { return toJson(topic); },
            [](const folders::Topic &topic) {
                return QStringList{topic.folder, topic.name, topic.sessionId, topic.parentTopic,
                                   topic.createdAt};
            });
        return Exit::Ok;
    });
}

} // namespace

Exit runTopic(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("add"), QStringLiteral("add <folder> <topic>"), add},
        {QStringLiteral("list"), QStringLiteral("list [<folder>]"), list},
        {QStringLiteral("fork"), QStringLiteral("fork <folder> <topic> [<new-name>]"), fork},
        {QStringLiteral("rename"), QStringLiteral("rename <folder> <topic> <new-name>"), rename},
        {QStringLiteral("rm"), QStringLiteral("rm <folder> <topic>"), remove},
    };
    return runSubcommand(context, QStringLiteral("topic"), arguments, subcommands);
}

} // namespace arizuko::cli
