// arizukoctl grant add|rm|list|check|tools|join|leave|members: the acl rows that
// say what each folder's agent may do through tools, and the membership graph.

#include "commands.h"
#include "core/actors.h"
#include "models/grant_model.h"
#include "policy/action.h"
#include "policy/policy.h"
#include "subcommands.h"
#include "with_policy.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

// NAME=VALUE pairs of repeated --param options; a usage error names a bad one.
std::optional<QMap<QString, QString>> parseParams(Context &context, const QString &command,
                                                  const QStringList &values, Exit &exit)
{
    QMap<QString, QString> params;
    for (const QString &value : values) {
        const qsizetype equals = value.indexOf(u'=');
        if (equals <= 0) {
            exit = context.usageError(
                QStringLiteral("%1: --param '%2' is not NAME=VALUE (e.g. --param jid=telegram:*)")
                    .arg(command, value));
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
    return pairs.isEmpty() ? QStringLiteral("-") : pairs.join(u' ');
}

void printGrants(Context &context, const QList<policy::Grant> &grants)
{
    context.printList(
        grants,
        {QStringLiteral("ID"), QStringLiteral("EFFECT"), QStringLiteral("PRINCIPAL"),
         QStringLiteral("ACTION"), QStringLiteral("SCOPE"), QStringLiteral("PARAMS"),
         QStringLiteral("GRANT OPTION"), QStringLiteral("GRANTED BY")},
        [](const policy::Grant &grant) { return policy::toJson(grant); },
        [](const policy::Grant &grant) {
            return QStringList{QString::number(grant.id),
                               policy::effectName(grant.effect),
                               grant.principal,
                               grant.action,
                               grant.scope,
                               paramsText(grant.params),
                               grant.grantOption ? QStringLiteral("yes") : QStringLiteral("no"),
                               grant.grantedBy};
        });
}

// Opens the store and runs `use` with the calling thread's policy.
Exit add(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("grant add");
    QCommandLineParser parser;
    const QCommandLineOption deny(QStringLiteral("deny"),
                                  QStringLiteral("Add a deny row (deny wins)."));
    const QCommandLineOption param(QStringLiteral("param"),
                                   QStringLiteral("Narrow to calls whose NAME matches GLOB."),
                                   QStringLiteral("NAME=GLOB"));
    const QCommandLineOption grantOption(
        QStringLiteral("grant-option"),
        QStringLiteral("The principal may delegate this row onward."));
    const QCommandLineOption as(QStringLiteral("as"), QStringLiteral("Delegate as this folder."),
                                QStringLiteral("FOLDER"));
    parser.addOptions({deny, param, grantOption, as});
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Add a grant. ACTION is *, admin, interact, egress, mcp:*, mcp:<tool>,\n"
                 "ext:<service>:<operation> (a connector, e.g. ext:github:** or\n"
                 "ext:*:issues:read) or shell:env:<KEY> (the folder's secret KEY in the\n"
                 "agent's environment; prefer a connector);\n"
                 "SCOPE is corp (exactly), corp/* (children), corp/** (subtree) or ** (all).\n"
                 "With --as FOLDER the grant is delegated by that folder: it must hold a row\n"
                 "WITH GRANT OPTION covering it, and may not write a deny or name a wildcard."),
             {{QStringLiteral("principal"), QStringLiteral("A folder, role:<name> or a glob.")},
              {QStringLiteral("action"), QStringLiteral("What is granted.")},
              {QStringLiteral("scope"), QStringLiteral("Where it is granted.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
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
                                                : policy.grants().add(grant, actors::cli);
        if (!added)
            return context.failure(added.error());
        if (context.json())
            context.printJson(policy::toJson(*added));
        else
            context.out() << "grant " << policy::describeGrant(*added) << "\n";
        if (const QString key = policy::shellEnvKey(added->action);
            !key.isEmpty() && added->effect == policy::Effect::Allow) {
            context.err() << "warning: " << models::GrantModel::shellEnvWarning(key)
                          << " (arizukoctl connector list).\n";
            context.err().flush();
        }
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("grant rm");
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {command,
                           QStringLiteral("Remove a grant by its id (see grant list)."),
                           {{QStringLiteral("id"), QStringLiteral("The grant's id.")}}},
                          arguments))
        return *stop;
    bool numeric = false;
    const qint64 id = parser.positionalArguments().first().toLongLong(&numeric);
    if (!numeric)
        return context.usageError(QStringLiteral("%1: <id> '%2' is not a number")
                                      .arg(command, parser.positionalArguments().first()));
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::Grant> removed = policy.grants().remove(id, actors::cli);
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
    const QString command = QStringLiteral("grant list");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "List every grant, or the grants that apply to PRINCIPAL: its own, its\n"
                 "roles' (transitively) and wildcard principals matching any of them."),
             {{QStringLiteral("principal"), QStringLiteral("Optional."), Positional::Kind::Optional,
               QStringLiteral("[principal]")}}},
            arguments))
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
    const QString command = QStringLiteral("grant check");
    QCommandLineParser parser;
    const QCommandLineOption param(QStringLiteral("param"), QStringLiteral("A call parameter."),
                                   QStringLiteral("NAME=VALUE"));
    parser.addOption(param);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Would PRINCIPAL be allowed ACTION on SCOPE? Prints the decision and the row\n"
                 "that decided. Exits 0 when allowed, 1 when denied."),
             {{QStringLiteral("principal"), QStringLiteral("Who asks, e.g. corp/eng.")},
              {QStringLiteral("action"), QStringLiteral("e.g. mcp:send_file.")},
              {QStringLiteral("scope"), QStringLiteral("The folder acted upon.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
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
            QJsonObject object{{QStringLiteral("allowed"), decision->allowed},
                               {QStringLiteral("reason"), decision->reason}};
            if (decision->decidingGrant)
                object.insert(QStringLiteral("grant"), policy::toJson(*decision->decidingGrant));
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
    const QString command = QStringLiteral("grant tools");
    QCommandLineParser parser;
    const QCommandLineOption scope(QStringLiteral("scope"),
                                   QStringLiteral("The folder to look at."),
                                   QStringLiteral("FOLDER"));
    parser.addOption(scope);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "The tools PRINCIPAL's agent can see at SCOPE (default: the principal's own\n"
                 "folder): those some allow row covers and no unconditional deny removes."),
             {{QStringLiteral("principal"), QStringLiteral("A folder, e.g. corp/eng.")}}},
            arguments))
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
    const QString command = join ? QStringLiteral("grant join") : QStringLiteral("grant leave");
    QCommandLineParser parser;
    if (const auto stop =
            context.parse(parser,
                          {command,
                           join ? QStringLiteral("Make CHILD a member of PARENT: CHILD gets every "
                                                 "grant PARENT has.\nRefused if it would close a "
                                                 "cycle.")
                                : QStringLiteral("End CHILD's membership of PARENT."),
                           {{QStringLiteral("child"), QStringLiteral("A folder or role.")},
                            {QStringLiteral("parent"), QStringLiteral("A role (or folder).")}}},
                          arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<void> changed =
            join ? policy.grants().addMembership(positionals.at(0), positionals.at(1), actors::cli)
                 : policy.grants().removeMembership(positionals.at(0), positionals.at(1),
                                                    actors::cli);
        if (!changed)
            return context.failure(changed.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("child"), positionals.at(0)},
                                          {QStringLiteral("parent"), positionals.at(1)},
                                          {QStringLiteral("member"), join}});
        else
            context.out() << positionals.at(0) << (join ? " is now a member of " : " left ")
                          << positionals.at(1) << "\n";
        return Exit::Ok;
    });
}

Exit members(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("grant members");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser, {command, QStringLiteral("List every membership (child -> parent).")},
            arguments))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::Membership>> edges = policy.grants().memberships();
        if (!edges)
            return context.failure(edges.error());
        context.printList(
            *edges, {QStringLiteral("CHILD"), QStringLiteral("PARENT")},
            [](const policy::Membership &edge) {
                return QJsonObject{{QStringLiteral("child"), edge.child},
                                   {QStringLiteral("parent"), edge.parent}};
            },
            [](const policy::Membership &edge) {
                return QStringList{edge.child, edge.parent};
            });
        return Exit::Ok;
    });
}

} // namespace

Exit runGrant(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("add"),
         QStringLiteral(
             "add <principal> <action> <scope> [--deny] [--param NAME=GLOB]... [--grant-option] "
             "[--as FOLDER]"),
         add},
        {QStringLiteral("rm"), QStringLiteral("rm <id>"), remove},
        {QStringLiteral("list"), QStringLiteral("list [<principal>]"), list},
        {QStringLiteral("check"),
         QStringLiteral("check <principal> <action> <scope> [--param NAME=VALUE]..."), check},
        {QStringLiteral("tools"), QStringLiteral("tools <principal> [--scope FOLDER]"), tools},
        {QStringLiteral("join"), QStringLiteral("join <child> <parent>"),
         [](Context &c, const QStringList &a) { return membership(c, a, true); }},
        {QStringLiteral("leave"), QStringLiteral("leave <child> <parent>"),
         [](Context &c, const QStringList &a) { return membership(c, a, false); }},
        {QStringLiteral("members"), QStringLiteral("members"), members},
    };
    return runSubcommand(context, QStringLiteral("grant"), arguments, subcommands);
}

} // namespace arizuko::cli
