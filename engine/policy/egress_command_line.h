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
    // Rules by method and path (request_rule.h: proxyRequestRules): each a
    // --rule; with any, the proxy reads the turn's CA from kInspectCaFd.
    QStringList rules;
};

QStringList egressArguments(const EgressCommandLine &line);

} // namespace arizuko::policy
