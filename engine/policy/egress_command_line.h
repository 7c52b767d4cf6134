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
};

QStringList egressArguments(const EgressCommandLine &line);

} // namespace arizuko::policy
