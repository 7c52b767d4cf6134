// arizukoctl route add|rm|list|test: which folder an incoming message goes to.

#include "commands.h"
#include "core/actors.h"
#include "policy/policy.h"
#include "subcommands.h"
#include "with_policy.h"

#include <QCommandLineParser>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

std::optional<qint64> parseNumber(Context &context, const QString &command, const QString &name,
                                  const QString &value, Exit &exit)
{
    bool numeric = false;
    const qint64 number = value.toLongLong(&numeric);
    if (!numeric) {
        exit = context.usageError(
            QStringLiteral("%1: <%2> '%3' is not a number").arg(command, name, value));
        return std::nullopt;
    }
    return number;
}

Exit add(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("route add");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Add a route. The lowest SEQ whose predicates all match a message wins.\n"
                 "MATCH is one argument of whitespace-separated key=glob predicates, e.g.\n"
                 "'platform=cli chat=corp/*' ('*' does not cross '/', '**' does; '' matches\n"
                 "every message). TARGET is a folder, optionally with #observe."),
             {{QStringLiteral("seq"), QStringLiteral("The route's order (lower first).")},
              {QStringLiteral("match"), QStringLiteral("key=glob predicates.")},
              {QStringLiteral("target"), QStringLiteral("e.g. corp/eng or corp/eng#observe.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    Exit usage = Exit::Usage;
    const auto seq = parseNumber(context, command, QStringLiteral("seq"), positionals.at(0), usage);
    if (!seq)
        return usage;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Route> added =
            policy.routes().add(*seq, positionals.at(1), positionals.at(2), actors::cli);
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
    const QString command = QStringLiteral("route rm");
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {command,
                           QStringLiteral("Remove a route by its id (see route list)."),
                           {{QStringLiteral("id"), QStringLiteral("The route's id.")}}},
                          arguments))
        return *stop;
    Exit usage = Exit::Usage;
    const auto id = parseNumber(context, command, QStringLiteral("id"),
                                parser.positionalArguments().first(), usage);
    if (!id)
        return usage;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Route> removed = policy.routes().remove(*id, actors::cli);
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
    const QString command = QStringLiteral("route list");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser, {command, QStringLiteral("List the routes in the order they are tried.")},
            arguments))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::Route>> routes = policy.routes().list();
        if (!routes)
            return context.failure(routes.error());
        context.printList(
            *routes,
            {QStringLiteral("ID"), QStringLiteral("SEQ"), QStringLiteral("MATCH"),
             QStringLiteral("TARGET")},
            [](const policy::Route &route) { return policy::toJson(route); },
            [](const policy::Route &route) {
                return QStringList{QString::number(route.id), QString::number(route.seq),
                                   route.match.isEmpty() ? QStringLiteral("(every message)")
                                                         : route.match,
                                   route.target};
            });
        return Exit::Ok;
    });
}

Exit test(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("route test");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Which route takes a message with these attributes? Exits 1 when none does."),
             {{QStringLiteral("attributes"), QStringLiteral("key=value pairs, e.g. platform=cli."),
               Positional::Kind::Variadic, QStringLiteral("key=value...")}}},
            arguments))
        return *stop;
    policy::MessageAttributes attributes;
    for (const QString &pair : parser.positionalArguments()) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals <= 0)
            return context.usageError(
                QStringLiteral("%1: attribute '%2' is not key=value (e.g. chat=corp/eng)")
                    .arg(command, pair));
        attributes.insert(pair.first(equals), pair.sliced(equals + 1));
    }
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<std::optional<policy::RouteMatch>> match = policy.routes().resolve(attributes);
        if (!match)
            return context.failure(match.error());
        if (!*match) {
            if (context.json())
                context.printJson(QJsonObject{{QStringLiteral("matched"), false}});
            return context.failure(QStringLiteral("no route matches the message"));
        }
        const policy::RouteMatch &found = **match;
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("matched"), true},
                                          {QStringLiteral("folder"), found.folder},
                                          {QStringLiteral("observe"), found.observe},
                                          {QStringLiteral("route"), policy::toJson(found.route)}});
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
        {QStringLiteral("add"), QStringLiteral("add <seq> <match> <target>"), add},
        {QStringLiteral("rm"), QStringLiteral("rm <id>"), remove},
        {QStringLiteral("list"), QStringLiteral("list"), list},
        {QStringLiteral("test"), QStringLiteral("test key=value..."), test},
    };
    return runSubcommand(context, QStringLiteral("route"), arguments, subcommands);
}

} // namespace arizuko::cli
