#include "policy/egress_command_line.h"

namespace arizuko::policy {

QStringList egressArguments(const EgressCommandLine &line)
{
    QStringList arguments{QStringLiteral("--listen"),        line.listenAddress,
                          QStringLiteral("--client"),        line.client,
                          QStringLiteral("--drain-timeout"), QStringLiteral("1")};
    if (!line.allow.isEmpty())
        arguments << QStringLiteral("--allow") << line.allow.join(QLatin1Char(','));
    if (!line.deny.isEmpty())
        arguments << QStringLiteral("--deny") << line.deny.join(QLatin1Char(','));
    if (line.allowAll)
        arguments << QStringLiteral("--allow-all");
    if (line.denyPrivate)
        arguments << QStringLiteral("--deny-private");
    if (line.allowLoopback)
        arguments << QStringLiteral("--allow-loopback");
    if (!line.folder.isEmpty())
        arguments << QStringLiteral("--folder") << line.folder;
    if (line.ask)
        arguments << QStringLiteral("--ask") << QStringLiteral("--ask-timeout")
                  << QString::number(line.askTimeoutSeconds) << QStringLiteral("--ask-limit")
                  << QString::number(line.askLimit);
    for (const QString &rule : line.rules)
        arguments << QStringLiteral("--rule") << rule;
    if (!line.rules.isEmpty() || line.boundSecrets)
        arguments << QStringLiteral("--inspect-ca-fd") << QString::number(kInspectCaFd);
    if (line.boundSecrets)
        arguments << QStringLiteral("--secrets-fd") << QString::number(kSecretsFd);
    return arguments;
}

} // namespace arizuko::policy
