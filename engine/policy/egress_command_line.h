#pragma once

// The command line of arizuko-egress for one client and a folder's resolved
// lists: what a turn's proxy runs with, and what the allowlist editor shows
// the user as the proxy's arguments.

#include <QString>
#include <QStringList>

namespace arizuko::policy {

// The descriptor the proxy reads the turn's CA certificate and key from
// (--inspect-ca-fd): the read end of a pipe the engine puts there in the child.
inline constexpr int kInspectCaFd = 3;
// The descriptor the proxy reads the turn's bound secrets from (--secrets-fd):
// JSON Lines, one binding each with its placeholder and value, never on disk,
// the command line or in the environment (docs/security-model.md).
inline constexpr int kSecretsFd = 4;

struct EgressCommandLine
{
    QString listenAddress;
    QString client;
    QStringList allow;
    QStringList deny;
    bool allowAll = false;
    bool denyPrivate = true;
    bool allowLoopback = false;
    // Named in denials, which tell how the user can allow a host (--folder).
    QString folder;
    // The folder's setting for hosts on no list: deny at once, or hold the
    // request and ask the engine on the proxy's stdin (--ask; the answers
    // channel is the engine's to provide).
    bool ask = false;
    int askTimeoutSeconds = 60;
    int askLimit = 20;
    // Rules by method and path (request_rule.h: proxyInspection): each a
    // --rule; with any, or with bound secrets, the proxy reads the turn's
    // CA from kInspectCaFd.
    QStringList rules;
    // The turn has bound secrets: the proxy reads them from kSecretsFd.
    bool boundSecrets = false;
};

QStringList egressArguments(const EgressCommandLine &line);

} // namespace arizuko::policy
