#include "commands.h"

namespace arizuko::cli {

const QList<CommandGroup> &commandGroups()
{
    static const QList<CommandGroup> groups = {
        {QStringLiteral("status"), QStringLiteral("status"), runStatus},
        {QStringLiteral("image"), QStringLiteral("image status|build [--force]"), runImage},
        {QStringLiteral("folder"), QStringLiteral("folder add|list|rm"), runFolder},
        {QStringLiteral("topic"), QStringLiteral("topic add|list|fork|rename"), runTopic},
        {QStringLiteral("secret"), QStringLiteral("secret set|list|rm|rotate-key"), runSecret},
        {QStringLiteral("grant"),
         QStringLiteral("grant add|rm|list|check|tools|join|leave|members"), runGrant},
        {QStringLiteral("connector"), QStringLiteral("connector list|show|check|call"),
         runConnector},
        {QStringLiteral("network"),
         QStringLiteral("network allow|deny|rm|list|resolve|test|pending|approve"), runNetwork},
        {QStringLiteral("route"), QStringLiteral("route add|rm|list|test"), runRoute},
        {QStringLiteral("export"),
         QStringLiteral(
             "export [--format manifest|script] [--folders F]... [--include "
             "acl,acl_membership,routes,secrets] [--unrepresentable omit|refuse] [-o FILE]"),
         runExport},
        {QStringLiteral("import"), QStringLiteral("import FILE [--plan] [--yes]"), runImport},
        {QStringLiteral("settings"), QStringLiteral("settings show|set"), runSettings},
        {QStringLiteral("audit"), QStringLiteral("audit [--kind K] [--subject S] [--limit N]"),
         runAudit},
        {QStringLiteral("run"),
         QStringLiteral(
             "run <folder> [--topic T] [--agent command|claude] \"<prompt or command>\""),
         runRun},
        {QStringLiteral("turns"), QStringLiteral("turns [--limit N] [--events TURN]"), runTurns},
        {QStringLiteral("turn"), QStringLiteral("turn changes|undo"), runTurn},
        {QStringLiteral("history"), QStringLiteral("history status|prune [folder]"), runHistory},
        {QStringLiteral("cancel"), QStringLiteral("cancel <turn>"), runCancel},
        {QStringLiteral("model"),
         QStringLiteral("model serve --script FILE [--listen HOST:PORT] [--request-log FILE] "
                        "[--var NAME=VALUE]..."),
         runModel},
    };
    return groups;
}

} // namespace arizuko::cli
