#pragma once

// The command line of arizuko-egress for one client and a folder's resolved
// lists: what a turn's proxy runs with, and what the allowlist editor shows
// the user as the proxy's arguments.

#include <QString>
#include <QStringList>

namespace arizuko::policy {

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
};

QStringList egressArguments(const EgressCommandLine &line);

} // namespace arizuko::policy
