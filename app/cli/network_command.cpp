// arizukoctl network allow|deny|rm|list|resolve|test: the hosts each folder's
// turns may reach, inherited from '' (the base) down the folder tree;
// pending|approve|deny <id> for the questions of folders that ask
// (network_questions.h). The egress ledger's log and retention are in
// network_log_command.cpp.

#include "commands.h"
#include "core/actors.h"
#include "network_questions.h"
#include "policy/policy.h"
#include "subcommands.h"
#include "with_policy.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::cli {
namespace {

const QString folderHelp = QStringLiteral("The folder; '' is the base every folder inherits.");

QString folderLabel(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("''") : folder;
}

// --method and --path: a rule by method and path (policy/request_rule.h),
// whose host the turn's proxy inspects.
struct RequestOptions
{
    QCommandLineOption method{QStringLiteral("method"),
                              QStringLiteral("Methods, e.g. GET,HEAD ('*': every method)."),
                              QStringLiteral("methods")};
    QCommandLineOption path{QStringLiteral("path"),
                            QStringLiteral("A path pattern, e.g. /repos/acme/** ('*' within one "
                                           "segment, '**' any segments)."),
                            QStringLiteral("glob")};

    explicit RequestOptions(QCommandLineParser &parser) { parser.addOptions({method, path}); }
    QString methods(const QCommandLineParser &parser) const { return parser.value(method); }
    QString glob(const QCommandLineParser &parser) const { return parser.value(path); }
};

const QString requestRuleHelp = QStringLiteral(
    "\nWith --method or --path the rule is for requests: the turn's proxy then inspects\n"
    "HOST (TLS ended with the turn's own CA) and judges each request by its method\n"
    "and path; a deny wins, and a request no rule allows is denied. A host allow\n"
    "entry that covers the host still allows every request no deny rule refuses.");

QString dashIfEmpty(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("-") : text;
}

void printRules(Context &context, const QList<policy::NetworkRule> &rules)
{
    context.printList(
        rules,
        {QStringLiteral("FOLDER"), QStringLiteral("KIND"), QStringLiteral("METHODS"),
         QStringLiteral("HOST"), QStringLiteral("PATH"), QStringLiteral("BY"),
         QStringLiteral("CREATED")},
        [](const policy::NetworkRule &rule) { return policy::toJson(rule); },
        [](const policy::NetworkRule &rule) {
            return QStringList{folderLabel(rule.folder),
                               policy::ruleKindName(rule.kind),
                               dashIfEmpty(rule.methods),
                               rule.target,
                               dashIfEmpty(rule.path),
                               rule.createdBy,
                               rule.createdAt};
        });
}

Exit addRule(Context &context, const QStringList &arguments, policy::RuleKind kind)
{
    const QString command = QStringLiteral("network ") + policy::ruleKindName(kind);
    QCommandLineParser parser;
    const RequestOptions request(parser);
    if (const auto stop = context.parse(
            parser,
            {command,
             (kind == policy::RuleKind::Allow
                  ? QStringLiteral(
                        "Allow the folder's turns (and its subfolders') to reach HOST.\n")
                  : QStringLiteral("Deny HOST to the folder and its subfolders; a deny wins over "
                                   "every allow.\n")) +
                 QStringLiteral(
                     "HOST is a host name (covers its subdomains; *.x is the same as x) or an IP\n"
                     "literal; no URL, path or port. Allowing every host is the egress grant.") +
                 requestRuleHelp,
             {{QStringLiteral("folder"), folderHelp},
              {QStringLiteral("host"), QStringLiteral("e.g. github.com.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::AddedRule> added =
            policy.network().add(positionals.at(0), positionals.at(1), kind, actors::cli,
                                 request.methods(parser), request.glob(parser));
        if (!added)
            return context.failure(added.error());
        if (context.json()) {
            QJsonObject object = policy::toJson(added->rule);
            object.insert(QStringLiteral("created"), added->created);
            context.printJson(object);
        } else {
            context.out() << (added->created ? "" : "already: ") << policy::ruleText(added->rule)
                          << " for " << folderLabel(added->rule.folder) << "\n";
        }
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("network rm");
    QCommandLineParser parser;
    const QCommandLineOption allowOnly(QStringLiteral("allow"),
                                       QStringLiteral("Only the allow rule."));
    const QCommandLineOption denyOnly(QStringLiteral("deny"),
                                      QStringLiteral("Only the deny rule."));
    parser.addOptions({allowOnly, denyOnly});
    const RequestOptions request(parser);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Remove the folder's own rule(s) for HOST (both kinds unless --allow/--deny).\n"
                 "With --method/--path the rule for those requests, else the host rule."),
             {{QStringLiteral("folder"), folderHelp},
              {QStringLiteral("host"),
               QStringLiteral("As it was added (it is normalised the same way).")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (parser.isSet(allowOnly) && parser.isSet(denyOnly))
        return context.usageError(
            QStringLiteral("%1: give --allow or --deny, not both").arg(command));
    std::optional<policy::RuleKind> kind;
    if (parser.isSet(allowOnly))
        kind = policy::RuleKind::Allow;
    if (parser.isSet(denyOnly))
        kind = policy::RuleKind::Deny;
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<QList<policy::NetworkRule>> removed =
            policy.network().remove(positionals.at(0), positionals.at(1), kind, actors::cli,
                                    request.methods(parser), request.glob(parser));
        if (!removed)
            return context.failure(removed.error());
        if (context.json()) {
            printRules(context, *removed);
        } else {
            for (const policy::NetworkRule &rule : *removed)
                context.out() << "removed " << policy::ruleText(rule) << " of "
                              << folderLabel(rule.folder) << "\n";
        }
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("network list");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "List every rule, or with FOLDER the rules that apply to it: its own and\n"
                 "those it inherits, each with the folder it comes from."),
             {{QStringLiteral("folder"), QStringLiteral("Optional. ") + folderHelp,
               Positional::Kind::Optional, QStringLiteral("[folder]")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
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
    const QString command = QStringLiteral("network resolve");
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "What the folder's turns get: the deduplicated allow and deny lists over\n"
                 "'' -> a -> a/b ..., and allow-all when the folder holds the egress grant."),
             {{QStringLiteral("folder"), folderHelp}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::NetworkPolicy> resolved = policy.network().resolve(positionals.at(0));
        if (!resolved)
            return context.failure(resolved.error());
        if (context.json()) {
            QJsonObject object{
                {QStringLiteral("folder"), positionals.at(0)},
                {QStringLiteral("allow"), QJsonArray::fromStringList(resolved->allow)},
                {QStringLiteral("deny"), QJsonArray::fromStringList(resolved->deny)},
                {QStringLiteral("allow_all"), resolved->allowAll},
                {QStringLiteral("rules"),
                 QJsonArray::fromStringList(policy::proxyRequestRules(*resolved))}};
            if (resolved->egressGrant)
                object.insert(QStringLiteral("egress_grant"),
                              policy::toJson(*resolved->egressGrant));
            context.printJson(object);
        } else {
            const auto joined = [](const QStringList &hosts) {
                return hosts.isEmpty() ? QStringLiteral("(none)") : hosts.join(u',');
            };
            context.out() << "allow: " << joined(resolved->allow) << "\n"
                          << "deny: " << joined(resolved->deny) << "\n"
                          << "allow-all: "
                          << (resolved->allowAll ? QStringLiteral("yes, by grant ") +
                                                       policy::describeGrant(*resolved->egressGrant)
                                                 : QStringLiteral("no"))
                          << "\n";
            for (const QString &rule : policy::proxyRequestRules(*resolved))
                context.out() << "rule: " << rule << "\n";
        }
        return Exit::Ok;
    });
}

// What `network test` prints of a host's or a request's verdict.
template<typename Verdict>
QJsonObject verdictJson(const Verdict &verdict)
{
    QJsonObject object{{QStringLiteral("host"), verdict.host},
                       {QStringLiteral("allowed"), verdict.allowed},
                       {QStringLiteral("reason"), verdict.reason}};
    if (verdict.decidingRule)
        object.insert(QStringLiteral("rule"), policy::toJson(*verdict.decidingRule));
    if (verdict.egressGrant)
        object.insert(QStringLiteral("egress_grant"), policy::toJson(*verdict.egressGrant));
    return object;
}

Exit testRequest(Context &context, const QString &folder, const QString &host,
                 const QString &method, const QString &path)
{
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::RequestVerdict> verdict =
            policy.network().testRequest(folder, method, host, path);
        if (!verdict)
            return context.failure(verdict.error());
        const QString shownMethod = method.isEmpty() ? QStringLiteral("GET") : method.toUpper();
        const QString shownPath = path.isEmpty() ? QStringLiteral("/") : path;
        if (context.json()) {
            QJsonObject object = verdictJson(*verdict);
            object.insert(QStringLiteral("method"), shownMethod);
            object.insert(QStringLiteral("path"), shownPath);
            object.insert(QStringLiteral("inspected"), verdict->inspected);
            context.printJson(object);
        } else {
            context.out() << (verdict->allowed ? "allow " : "deny ") << shownMethod << ' '
                          << verdict->host << shownPath << ": " << verdict->reason << "\n";
        }
        return verdict->allowed ? Exit::Ok : Exit::Failed;
    });
}

Exit test(Context &context, const QStringList &arguments)
{
    const QString command = QStringLiteral("network test");
    QCommandLineParser parser;
    const RequestOptions request(parser);
    if (const auto stop = context.parse(
            parser,
            {command,
             QStringLiteral(
                 "Would the folder's turn proxy let HOST through? Names the rule and folder\n"
                 "that decide. Exits 0 when allowed, 1 when denied. With --method or --path:\n"
                 "one request (GET and / when one is left out), as the proxy judges it\n"
                 "when HOST is inspected."),
             {{QStringLiteral("folder"), folderHelp},
              {QStringLiteral("host"), QStringLiteral("e.g. api.github.com.")}}},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    if (parser.isSet(request.method) || parser.isSet(request.path))
        return testRequest(context, positionals.at(0), positionals.at(1), request.methods(parser),
                           request.glob(parser));
    return withPolicy(context, [&](policy::Policy &policy) {
        const Result<policy::HostVerdict> verdict =
            policy.network().test(positionals.at(0), positionals.at(1));
        if (!verdict)
            return context.failure(verdict.error());
        if (context.json()) {
            QJsonObject object = verdictJson(*verdict);
            object.insert(QStringLiteral("inspected"), verdict->inspected);
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
        {QStringLiteral("allow"),
         QStringLiteral("allow <folder> <host> [--method M,...] [--path GLOB]"),
         [](Context &c, const QStringList &a) { return addRule(c, a, policy::RuleKind::Allow); }},
        {QStringLiteral("deny"),
         QStringLiteral("deny <folder> <host> [--method M,...] [--path GLOB] | deny <question id>"),
         [](Context &c, const QStringList &a) {
             return isQuestionDenial(a) ? runNetworkDeny(c, a)
                                        : addRule(c, a, policy::RuleKind::Deny);
         }},
        {QStringLiteral("rm"),
         QStringLiteral("rm <folder> <host> [--allow|--deny] [--method M,...] [--path GLOB]"),
         remove},
        {QStringLiteral("list"), QStringLiteral("list [<folder>]"), list},
        {QStringLiteral("resolve"), QStringLiteral("resolve <folder>"), resolve},
        {QStringLiteral("test"), QStringLiteral("test <folder> <host> [--method M] [--path P]"),
         test},
        {QStringLiteral("pending"), QStringLiteral("pending"), runNetworkPending},
        {QStringLiteral("approve"), QStringLiteral("approve <id> [--once|--turn|--always]"),
         runNetworkApprove},
        {QStringLiteral("log"),
         QStringLiteral("log [--folder F] [--turn ID] [--since T] [--decision allow|deny] "
                        "[--format jsonl|ocsf|table] [--follow]"),
         runNetworkLog},
        {QStringLiteral("retention"), QStringLiteral("retention <folder> [<days>]"),
         runNetworkRetention},
    };
    return runSubcommand(context, QStringLiteral("network"), arguments, subcommands);
}

} // namespace arizuko::cli
