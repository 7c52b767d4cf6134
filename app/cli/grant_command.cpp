// arizukoctl grant add|rm|list|check|tools|join|leave|members: the acl rows that
// say what each folder's agent may do through tools, and the membership graph.

#include "commands.h"
#include "policy/policy.h"
#include "subcommands.h"
#include "with_policy.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace arizuko::cli {
namespace {

const QString actor = u"user:cli"_s;

// NAME=VALUE pairs of repeated --param options; a usage error names a bad one.
std::optional<QMap<QString, QString>> parseParams(Context &context, const QString &command,
                                                  const QStringList &values, Exit &exit)
{
    QMap<QString, QString> params;
    for (const QString &value : values) {
        const qsizetype equals = value.indexOf(u'=');
        if (equals <= 0) {
            exit = context.usageError(
                u"%1: --param '%2' is not NAME=VALUE (e.g. --param jid=telegram:*)"_s.arg(command,
                                                                                          value));
            return std::nullopt;
        }
        params.insert(value.first(equals), value.sliced(equals + 1));
    }
    return params;
}

QString paramsText(const policy::GrantParams &params)
{
    QStringList pairs;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        pairs << it.key() + u'=' + it.value();
    return pairs.isEmpty() ? u"-"_s : pairs.join(u' ');
}

void printGrants(Context &context, const QList<policy::Grant> &grants)
{
    context.printList(
        grants,
        {u"ID"_s, u"EFFECT"_s, u"PRINCIPAL"_s, u"ACTION"_s, u"SCOPE"_s, u"PARAMS"_s,
         u"GRANT OPTION"_s, u"GRANTED BY"_s},
        [](const policy::Grant &grant) { return policy::toJson(grant); },
        [](const policy::Grant &grant) {
            return QStringList{QString::number(grant.id), policy::effectName(grant.effect),
                               grant.principal, grant.action, grant.scope,
                               paramsText(grant.params), grant.grantOption ? u"yes"_s : u"no"_s,
                               grant.grantedBy};
        });
}

// Opens the store and runs `use` with the calling thread's policy.
Exit add(Context &context, const QStringList &arguments)
{
    const QString command = u"grant add"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Add a grant. ACTION is *, admin, interact, egress, mcp:* or mcp:<tool>;\n"
        u"SCOPE is corp (exactly), corp/* (children), corp/** (subtree) or ** (all).\n"
        u"With --as FOLDER the grant is delegated by that folder: it must hold a row\n"
        u"WITH GRANT OPTION covering it, and may not write a deny or name a wildcard."_s);
    parser.addPositionalArgument(u"principal"_s, u"A folder, role:<name> or a glob."_s);
    parser.addPositionalArgument(u"action"_s, u"What is granted."_s);
    parser.addPositionalArgument(u"scope"_s, u"Where it is granted."_s);
    const QCommandLineOption deny(u"deny"_s, u"Add a deny row (deny wins)."_s);
    const QCommandLineOption param(u"param"_s, u"Narrow to calls whose NAME matches GLOB."_s,
                                   u"NAME=GLOB"_s);
    const QCommandLineOption grantOption(u"grant-option"_s,
                                         u"The principal may delegate this row onward."_s);
    const QCommandLineOption as(u"as"_s, u"Delegate as this folder."_s, u"FOLDER"_s);
    parser.addOptions({deny, param, grantOption, as});
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop = expectPositionals(context, command, positionals,
                                            {u"principal"_s, u"action"_s, u"scope"_s}))
        return *stop;
    Exit usage = Exit::Usage;
    const auto params = parseParams(context, command, parser.values(param), usage);
    if (!params)
        return usage;
    policy::Grant grant;
    grant.principal = positionals.at(0);
    grant.action = positionals.at(1);
    grant.scope = positionals.at(2);
    grant.effect = parser.isSet(deny) ? policy::Effect::Deny : policy::Effect::Allow;
    grant.params = *params;
    grant.grantOption = parser.isSet(grantOption);
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Grant> added = parser.isSet(as)
                                                ? policy.grants().delegate(parser.value(as), grant)
                                                : policy.grants().add(grant, actor);
        if (!added)
            return context.failure(added.error());
        if (context.json())
            context.printJson(policy::toJson(*added));
        else
            context.out() << "grant " << policy::describeGrant(*added) << "\n";
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    const QString command = u"grant rm"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Remove a grant by its id (see grant list)."_s);
    parser.addPositionalArgument(u"id"_s, u"The grant's id."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop =
            expectPositionals(context, command, parser.positionalArguments(), {u"id"_s}))
        return *stop;
    bool numeric = false;
    const qint64 id = parser.positionalArguments().first().toLongLong(&numeric);
    if (!numeric)
        return context.usageError(
            u"%1: <id> '%2' is not a number"_s.arg(command, parser.positionalArguments().first()));
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Grant> removed = policy.grants().remove(id, actor);
        if (!removed)
            return context.failure(removed.error());
        if (context.json())
            context.printJson(policy::toJson(*removed));
        else
            context.out() << "removed grant " << policy::describeGrant(*removed) << "\n";
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    const QString command = u"grant list"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"List every grant, or the grants that apply to PRINCIPAL: its own, its\n"
        u"roles' (transitively) and wildcard principals matching any of them."_s);
    parser.addPositionalArgument(u"principal"_s, u"Optional."_s, u"[principal]"_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop =
            expectPositionals(context, command, parser.positionalArguments(), {u"principal"_s}, 1))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::Grant>> grants =
            policy.grants().list(parser.positionalArguments().value(0));
        if (!grants)
            return context.failure(grants.error());
        printGrants(context, *grants);
        return Exit::Ok;
    });
}

Exit check(Context &context, const QStringList &arguments)
{
    const QString command = u"grant check"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Would PRINCIPAL be allowed ACTION on SCOPE? Prints the decision and the row\n"
        u"that decided. Exits 0 when allowed, 1 when denied."_s);
    parser.addPositionalArgument(u"principal"_s, u"Who asks, e.g. corp/eng."_s);
    parser.addPositionalArgument(u"action"_s, u"e.g. mcp:send_file."_s);
    parser.addPositionalArgument(u"scope"_s, u"The folder acted upon."_s);
    const QCommandLineOption param(u"param"_s, u"A call parameter."_s, u"NAME=VALUE"_s);
    parser.addOption(param);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop = expectPositionals(context, command, positionals,
                                            {u"principal"_s, u"action"_s, u"scope"_s}))
        return *stop;
    Exit usage = Exit::Usage;
    const auto params = parseParams(context, command, parser.values(param), usage);
    if (!params)
        return usage;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Decision> decision = policy.grants().authorize(
            positionals.at(0), positionals.at(1), positionals.at(2), *params);
        if (!decision)
            return context.failure(decision.error());
        if (context.json()) {
            QJsonObject object{{u"allowed"_s, decision->allowed}, {u"reason"_s, decision->reason}};
            if (decision->decidingGrant)
                object.insert(u"grant"_s, policy::toJson(*decision->decidingGrant));
            context.printJson(object);
        } else {
            context.out() << (decision->allowed ? "allow" : "deny") << ": " << decision->reason
                          << "\n";
        }
        return decision->allowed ? Exit::Ok : Exit::Failed;
    });
}

Exit tools(Context &context, const QStringList &arguments)
{
    const QString command = u"grant tools"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"The tools PRINCIPAL's agent can see at SCOPE (default: the principal's own\n"
        u"folder): those some allow row covers and no unconditional deny removes."_s);
    parser.addPositionalArgument(u"principal"_s, u"A folder, e.g. corp/eng."_s);
    const QCommandLineOption scope(u"scope"_s, u"The folder to look at."_s, u"FOLDER"_s);
    parser.addOption(scope);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop =
            expectPositionals(context, command, parser.positionalArguments(), {u"principal"_s}))
        return *stop;
    const QString principal = parser.positionalArguments().first();
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QStringList> visible = policy.grants().effectiveActions(
            principal, parser.isSet(scope) ? parser.value(scope) : principal);
        if (!visible)
            return context.failure(visible.error());
        if (context.json())
            context.printJson(QJsonArray::fromStringList(*visible));
        else
            for (const QString &tool : *visible)
                context.out() << tool << "\n";
        context.out().flush();
        return Exit::Ok;
    });
}

Exit membership(Context &context, const QStringList &arguments, bool join)
{
    const QString command = join ? u"grant join"_s : u"grant leave"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(join ? u"Make CHILD a member of PARENT: CHILD gets every "
                                            u"grant PARENT has.\nRefused if it would close a "
                                            u"cycle."_s
                                          : u"End CHILD's membership of PARENT."_s);
    parser.addPositionalArgument(u"child"_s, u"A folder or role."_s);
    parser.addPositionalArgument(u"parent"_s, u"A role (or folder)."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop =
            expectPositionals(context, command, positionals, {u"child"_s, u"parent"_s}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<void> changed =
            join ? policy.grants().addMembership(positionals.at(0), positionals.at(1), actor)
                 : policy.grants().removeMembership(positionals.at(0), positionals.at(1), actor);
        if (!changed)
            return context.failure(changed.error());
        if (context.json())
            context.printJson(QJsonObject{{u"child"_s, positionals.at(0)},
                                          {u"parent"_s, positionals.at(1)},
                                          {u"member"_s, join}});
        else
            context.out() << positionals.at(0) << (join ? " is now a member of " : " left ")
                          << positionals.at(1) << "\n";
        return Exit::Ok;
    });
}

Exit members(Context &context, const QStringList &arguments)
{
    const QString command = u"grant members"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(u"List every membership (child -> parent)."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    if (const auto stop = expectPositionals(context, command, parser.positionalArguments(), {}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::Membership>> edges = policy.grants().memberships();
        if (!edges)
            return context.failure(edges.error());
        context.printList(
            *edges, {u"CHILD"_s, u"PARENT"_s},
            [](const policy::Membership &edge) {
                return QJsonObject{{u"child"_s, edge.child}, {u"parent"_s, edge.parent}};
            },
            [](const policy::Membership &edge) { return QStringList{edge.child, edge.parent}; });
        return Exit::Ok;
    });
}

} // namespace

Exit runGrant(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {u"add"_s,
         u"add <principal> <action> <scope> [--deny] [--param NAME=GLOB]... [--grant-option] "
         u"[--as FOLDER]"_s,
         add},
        {u"rm"_s, u"rm <id>"_s, remove},
        {u"list"_s, u"list [<principal>]"_s, list},
        {u"check"_s, u"check <principal> <action> <scope> [--param NAME=VALUE]..."_s, check},
        {u"tools"_s, u"tools <principal> [--scope FOLDER]"_s, tools},
        {u"join"_s, u"join <child> <parent>"_s,
         [](Context &c, const QStringList &a) { return membership(c, a, true); }},
        {u"leave"_s, u"leave <child> <parent>"_s,
         [](Context &c, const QStringList &a) { return membership(c, a, false); }},
        {u"members"_s, u"members"_s, members},
    };
    return runSubcommand(context, u"grant"_s, arguments, subcommands);
}

} // namespace arizuko::cli
