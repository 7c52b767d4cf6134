// arizukoctl network allow|deny|rm|list|resolve|test: the hosts each folder's
// turns may reach, inherited from '' (the base) down the folder tree.

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
const QString folderHelp = u"The folder; '' is the base every folder inherits."_s;

QString folderLabel(const QString &folder)
{
    return folder.isEmpty() ? u"''"_s : folder;
}

void printRules(Context &context, const QList<policy::NetworkRule> &rules)
{
    context.printList(
        rules, {u"FOLDER"_s, u"KIND"_s, u"HOST"_s, u"BY"_s, u"CREATED"_s},
        [](const policy::NetworkRule &rule) { return policy::toJson(rule); },
        [](const policy::NetworkRule &rule) {
            return QStringList{folderLabel(rule.folder), policy::ruleKindName(rule.kind),
                               rule.target, rule.createdBy, rule.createdAt};
        });
}

Exit addRule(Context &context, const QStringList &arguments, policy::RuleKind kind)
{
    const QString command = u"network "_s + policy::ruleKindName(kind);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        (kind == policy::RuleKind::Allow
             ? u"Allow the folder's turns (and its subfolders') to reach HOST.\n"_s
             : u"Deny HOST to the folder and its subfolders; a deny wins over every allow.\n"_s) +
        u"HOST is a host name (covers its subdomains; *.x is the same as x) or an IP\n"
        u"literal; no URL, path or port. Allowing every host is the egress grant."_s);
    parser.addPositionalArgument(u"folder"_s, folderHelp);
    parser.addPositionalArgument(u"host"_s, u"e.g. github.com."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop =
            expectPositionals(context, command, positionals, {u"folder"_s, u"host"_s}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::AddedRule> added =
            policy.network().add(positionals.at(0), positionals.at(1), kind, actor);
        if (!added)
            return context.failure(added.error());
        if (context.json()) {
            QJsonObject object = policy::toJson(added->rule);
            object.insert(u"created"_s, added->created);
            context.printJson(object);
        } else {
            context.out() << (added->created ? "" : "already: ") << policy::ruleKindName(kind)
                          << " " << added->rule.target << " for " << folderLabel(added->rule.folder)
                          << "\n";
        }
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    const QString command = u"network rm"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Remove the folder's own rule(s) for HOST (both kinds unless --allow/--deny)."_s);
    parser.addPositionalArgument(u"folder"_s, folderHelp);
    parser.addPositionalArgument(u"host"_s, u"As it was added (it is normalised the same way)."_s);
    const QCommandLineOption allowOnly(u"allow"_s, u"Only the allow rule."_s);
    const QCommandLineOption denyOnly(u"deny"_s, u"Only the deny rule."_s);
    parser.addOptions({allowOnly, denyOnly});
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop =
            expectPositionals(context, command, positionals, {u"folder"_s, u"host"_s}))
        return *stop;
    if (parser.isSet(allowOnly) && parser.isSet(denyOnly))
        return context.usageError(u"%1: give --allow or --deny, not both"_s.arg(command));
    std::optional<policy::RuleKind> kind;
    if (parser.isSet(allowOnly))
        kind = policy::RuleKind::Allow;
    if (parser.isSet(denyOnly))
        kind = policy::RuleKind::Deny;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::NetworkRule>> removed =
            policy.network().remove(positionals.at(0), positionals.at(1), kind, actor);
        if (!removed)
            return context.failure(removed.error());
        if (context.json()) {
            printRules(context, *removed);
        } else {
            for (const policy::NetworkRule &rule : *removed)
                context.out() << "removed " << policy::ruleKindName(rule.kind) << " " << rule.target
                              << " of " << folderLabel(rule.folder) << "\n";
        }
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    const QString command = u"network list"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"List every rule, or with FOLDER the rules that apply to it: its own and\n"
        u"those it inherits, each with the folder it comes from."_s);
    parser.addPositionalArgument(u"folder"_s, u"Optional. "_s + folderHelp, u"[folder]"_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop = expectPositionals(context, command, positionals, {u"folder"_s}, 1))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        if (positionals.isEmpty()) {
            const Result<QList<policy::NetworkRule>> rules = policy.network().list();
            if (!rules)
                return context.failure(rules.error());
            printRules(context, *rules);
            return Exit::Ok;
        }
        const Result<policy::NetworkPolicy> resolved = policy.network().resolve(positionals.at(0));
        if (!resolved)
            return context.failure(resolved.error());
        printRules(context, resolved->rules);
        return Exit::Ok;
    });
}

Exit resolve(Context &context, const QStringList &arguments)
{
    const QString command = u"network resolve"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"What the folder's turns get: the deduplicated allow and deny lists over\n"
        u"'' -> a -> a/b ..., and allow-all when the folder holds the egress grant."_s);
    parser.addPositionalArgument(u"folder"_s, folderHelp);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop = expectPositionals(context, command, positionals, {u"folder"_s}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::NetworkPolicy> resolved = policy.network().resolve(positionals.at(0));
        if (!resolved)
            return context.failure(resolved.error());
        if (context.json()) {
            QJsonObject object{{u"folder"_s, positionals.at(0)},
                               {u"allow"_s, QJsonArray::fromStringList(resolved->allow)},
                               {u"deny"_s, QJsonArray::fromStringList(resolved->deny)},
                               {u"allow_all"_s, resolved->allowAll}};
            if (resolved->egressGrant)
                object.insert(u"egress_grant"_s, policy::toJson(*resolved->egressGrant));
            context.printJson(object);
        } else {
            const auto joined = [](const QStringList &hosts) {
                return hosts.isEmpty() ? u"(none)"_s : hosts.join(u',');
            };
            context.out() << "allow: " << joined(resolved->allow) << "\n"
                          << "deny: " << joined(resolved->deny) << "\n"
                          << "allow-all: "
                          << (resolved->allowAll ? u"yes, by grant "_s +
                                                       policy::describeGrant(*resolved->egressGrant)
                                                 : u"no"_s)
                          << "\n";
        }
        return Exit::Ok;
    });
}

Exit test(Context &context, const QStringList &arguments)
{
    const QString command = u"network test"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Would the folder's turn proxy let HOST through? Names the rule and folder\n"
        u"that decide. Exits 0 when allowed, 1 when denied."_s);
    parser.addPositionalArgument(u"folder"_s, folderHelp);
    parser.addPositionalArgument(u"host"_s, u"e.g. api.github.com."_s);
    if (const auto stop = context.parse(parser, command, arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (const auto stop =
            expectPositionals(context, command, positionals, {u"folder"_s, u"host"_s}))
        return *stop;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::HostVerdict> verdict =
            policy.network().test(positionals.at(0), positionals.at(1));
        if (!verdict)
            return context.failure(verdict.error());
        if (context.json()) {
            QJsonObject object{{u"host"_s, verdict->host},
                               {u"allowed"_s, verdict->allowed},
                               {u"reason"_s, verdict->reason}};
            if (verdict->decidingRule)
                object.insert(u"rule"_s, policy::toJson(*verdict->decidingRule));
            if (verdict->egressGrant)
                object.insert(u"egress_grant"_s, policy::toJson(*verdict->egressGrant));
            context.printJson(object);
        } else {
            context.out() << (verdict->allowed ? "allow " : "deny ") << verdict->host << ": "
                          << verdict->reason << "\n";
        }
        return verdict->allowed ? Exit::Ok : Exit::Failed;
    });
}

} // namespace

Exit runNetwork(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {u"allow"_s, u"allow <folder> <host>"_s,
         [](Context &c, const QStringList &a) { return addRule(c, a, policy::RuleKind::Allow); }},
        {u"deny"_s, u"deny <folder> <host>"_s,
         [](Context &c, const QStringList &a) { return addRule(c, a, policy::RuleKind::Deny); }},
        {u"rm"_s, u"rm <folder> <host> [--allow|--deny]"_s, remove},
        {u"list"_s, u"list [<folder>]"_s, list},
        {u"resolve"_s, u"resolve <folder>"_s, resolve},
        {u"test"_s, u"test <folder> <host>"_s, test},
    };
    return runSubcommand(context, u"network"_s, arguments, subcommands);
}

} // namespace arizuko::cli
