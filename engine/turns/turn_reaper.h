#pragma once

// Crash safety: finds what dead engines left behind. Every libvirt object
// and proxy process of a turn is named after it (az-<turn8>); whatever
// carries such a name but belongs to no live turn of a live engine is
// destroyed, and turns whose engine is gone are marked interrupted (their
// events are kept). Only a failure to list what exists fails the reap; an
// object that cannot be removed is named in the report.

#include "core/result.h"
#include "libvirt/connection.h"
#include "turn_records/turn_records.h"
#include "turns/reap_report.h"

#include <QList>
#include <QSet>
#include <QStringList>

namespace arizuko::turns {

struct TurnProxyProcess
{
    qint64 pid = 0;
    QString turn;  // az-<turn8>
    QString owner; // the engine's mark, empty if none
};

// The arizuko-egress processes started for a turn (recognised by their
// environment, see egress_proxy.h).
QList<TurnProxyProcess> turnProxyProcesses();

// `ownLive` names the live turns of the calling engine, which are never reaped.
Result<ReapReport> reapOrphans(libvirt::Connection &connection, TurnRecords &records,
                               const QSet<QString> &ownLive);

} // namespace arizuko::turns
