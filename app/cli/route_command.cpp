// arizukoctl route add|rm|list|test: which folder an incoming message goes to.

#include "commands.h"
#include "policy/policy.h"
#include "subcommands.h"
#include "with_policy.h"

#include <QCommandLineParser>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace arizuko::cli {
namespace {

const QString actor = u"user:cli"_s;

std::optional<qint64> parseNumber(Context &context, const QString &command, const QString &name,
                                  const QString &value, Exit &exit)
{
    bool numeric = false;
    const qint64 number = value.toLongLong(&numeric);
    if (!numeric) {
        exit = context.usageError(u"%1: <%2> '%3' is not a number"_s.arg(command, name, value));
        return std::nullopt;
    }
    return number;
}

Exit add(Context &context, const QStringList &arguments)
{
    const QString command = u"route add"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Add a route. The lowest SEQ whose predicates all match a message wins.\n"
        u"MATCH is one argument of whitespace-separated key=glob predicates, e.g.\n"
        u"'platform=cli chat=corp/*' ('*' does not cross '/', '**' does; '' matches\n"
        u"every message). TARGET is a folder, optionally with #observe."_s);
    parser.addPositionalArgument(u"seq"_s, u"The route's order (lower first)."_s);
    parser.addPositionalArgument(u"match"_s, u"key=glob predicates."_s);
    parser.addPositionalArgument(u"target"_s, u"e.g. corp/eng or corp/eng#observe."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop =
            expectPositionals(context, command, positionals, {u"seq"_s, u"match"_s, u"target"_s}))
        return *stop;
    Exit usage = Exit::Usage;
    const auto seq = parseNumber(context, command, u"seq"_s, positionals.at(0), usage);
    if (!seq)
        return usage;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Route> added =
            policy.routes().add(*seq, positionals.at(1), positionals.at(2), actor);
        if (!added)
            return context.failure(added.error());
        if (context.json())
            context.printJson(policy::toJson(*added));
        else
            context.out() << "added route #" << added->id << " (seq " << added->seq << ")\n";
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    const QString command = u"route rm"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Remove a route by its id (see route list)."_s);
    parser.addPositionalArgument(u"id"_s, u"The route's id."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop =
            expectPositionals(context, command, parser.positionalArguments(), {u"id"_s}))
        return *stop;
    Exit usage = Exit::Usage;
    const auto id =
        parseNumber(context, command, u"id"_s, parser.positionalArguments().first(), usage);
    if (!id)
        return usage;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Route> removed = policy.routes().remove(*id, actor);
        if (!removed)
            return context.failure(removed.error());
        if (context.json())
            context.printJson(policy::toJson(*removed));
        else
            context.out() << "removed route #" << removed->id << "\n";
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    const QString command = u"route list"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(u"List the routes in the order they are tried."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop = expectPositionals(context, command, parser.positionalArguments(), {}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::Route>> routes = policy.routes().list();
        if (!routes)
            return context.failure(routes.error());
        context.printList(
            *routes, {u"ID"_s, u"SEQ"_s, u"MATCH"_s, u"TARGET"_s},
            [](const policy::Route &route) { return policy::toJson(route); },
            [](const policy::Route &route) {
                return QStringList{QString::number(route.id), QString::number(route.seq),
                                   route.match.isEmpty() ? u"(every message)"_s : route.match,
                                   route.target};
            });
        return Exit::Ok;
    });
}

Exit test(Context &context, const QStringList &arguments)
{
    const QString command = u"route test"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Which route takes a message with these attributes? Exits 1 when none does."_s);
    parser.addPositionalArgument(u"attributes"_s, u"key=value pairs, e.g. platform=cli."_s,
                                 u"key=value..."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    policy::MessageAttributes attributes;
    for (const QString &pair : parser.positionalArguments()) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals <= 0)
            return context.usageError(
                u"%1: attribute '%2' is not key=value (e.g. chat=corp/eng)"_s.arg(command, pair));
        attributes.insert(pair.first(equals), pair.sliced(equals + 1));
    }
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<std::optional<policy::RouteMatch>> match = policy.routes().resolve(attributes);
        if (!match)
            return context.failure(match.error());
        if (!*match) {
            if (context.json())
                context.printJson(QJsonObject{{u"matched"_s, false}});
            return context.failure(u"no route matches the message"_s);
        }
        const policy::RouteMatch &found = **match;
        if (context.json())
            context.printJson(QJsonObject{{u"matched"_s, true},
                                          {u"folder"_s, found.folder},
                                          {u"observe"_s, found.observe},
                                          {u"route"_s, policy::toJson(found.route)}});
        else
            context.out() << found.folder << (found.observe ? " (observe)" : "") << " by route #"
                          << found.route.id << " (seq " << found.route.seq << ")\n";
        return Exit::Ok;
    });
}

} // namespace

Exit runRoute(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {u"add"_s, u"add <seq> <match> <target>"_s, add},
        {u"rm"_s, u"rm <id>"_s, remove},
        {u"list"_s, u"list"_s, list},
        {u"test"_s, u"test key=value..."_s, test},
    };
    return runSubcommand(context, u"route"_s, arguments, subcommands);
}

} // namespace arizuko::cli
