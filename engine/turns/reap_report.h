#pragma once

// What a start-up reap removed and what it had to leave (turn_reaper.h), as
// a value a front-end prints or logs without libvirt's headers.

#include "core/result.h"

#include <QList>
#include <QStringList>

namespace arizuko::turns {

struct ReapReport
{
    QStringList interruptedTurns; // names
    QStringList domains;
    QStringList networks;
    QStringList filterBindings; // the taps they were bound to
    QStringList taps;
    QList<qint64> proxies; // pids
    // Orphans this engine could not remove, each with the reason: another
    // user's leftovers (a tap only root or its owner may delete) must not
    // keep this user's engine from starting, so they are reported instead.
    QStringList leftBehind;

    // Nothing was removed (whatever was left behind).
    bool isEmpty() const
    {
        return interruptedTurns.isEmpty() && domains.isEmpty() && networks.isEmpty() &&
               filterBindings.isEmpty() && taps.isEmpty() && proxies.isEmpty();
    }
    // Records `name` as removed, or as left behind with the reason.
    void settle(const Result<void> &removal, QStringList &removed, const QString &name);
};

} // namespace arizuko::turns
