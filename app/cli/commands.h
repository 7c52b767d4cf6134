#pragma once

// The command groups of arizukoctl, one function per group, each in its
// own <group>_command.cpp. The dispatch table is in commands.cpp.

#include "context.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace arizuko::cli {

using CommandHandler = Exit (*)(Context &, const QStringList &arguments);

struct CommandGroup
{
    QString name;
    QString synopsis;
    CommandHandler run;
};

const QList<CommandGroup> &commandGroups();

Exit runStatus(Context &context, const QStringList &arguments);
Exit runImage(Context &context, const QStringList &arguments);
Exit runFolder(Context &context, const QStringList &arguments);
Exit runTopic(Context &context, const QStringList &arguments);
Exit runSecret(Context &context, const QStringList &arguments);
Exit runAudit(Context &context, const QStringList &arguments);
Exit runGrant(Context &context, const QStringList &arguments);
Exit runNetwork(Context &context, const QStringList &arguments);
// network log, network retention (network_log_command.cpp).
Exit runNetworkLog(Context &context, const QStringList &arguments);
Exit runNetworkRetention(Context &context, const QStringList &arguments);
Exit runRoute(Context &context, const QStringList &arguments);
Exit runRun(Context &context, const QStringList &arguments);
Exit runTurns(Context &context, const QStringList &arguments);
Exit runTurn(Context &context, const QStringList &arguments);
Exit runHistory(Context &context, const QStringList &arguments);
Exit runCancel(Context &context, const QStringList &arguments);
Exit runModel(Context &context, const QStringList &arguments);
Exit runExport(Context &context, const QStringList &arguments);
Exit runImport(Context &context, const QStringList &arguments);
Exit runSettings(Context &context, const QStringList &arguments);
Exit runConnector(Context &context, const QStringList &arguments);

} // namespace arizuko::cli
