#pragma once

// A turn's NIC on the host side, made by the engine ahead of the VM: a
// persistent tap with a virtio-net header, on the turn's bridge, named
// az-<turn8>-g and marked with the owning engine in its alias. The VM
// attaches to it as <interface type='ethernet'> with managed='no', so the
// nwfilter binding can be created for a tap that already exists (a binding
// for a missing tap "succeeds" without a single rule).

#include "core/result.h"

#include <QList>
#include <QString>

namespace arizuko::libvirt {

// The tap of the turn named `turnName` (az-<turn8>).
QString turnTapName(const QString &turnName);

// Creates the tap, enslaves it to `bridge` (none when empty: the turn's
// network may not exist yet) and sets it up, with `owner` (an engine's
// "pid:starttime") in its alias. Needs CAP_NET_ADMIN, or the helper
// (net_admin.h), which makes the tap the engine's user's.
Result<void> createTurnTap(const QString &tap, const QString &bridge, const QString &owner);

// Enslaves a tap made without a bridge to the turn's bridge.
Result<void> attachTurnTap(const QString &tap, const QString &bridge);

// Deletes the tap; one already gone is not an error.
Result<void> deleteTurnTap(const QString &tap);

struct TurnTap
{
    QString name;  // az-<turn8>-g
    QString owner; // the engine's mark from the alias, empty if none
};

// Every tap on the host named like a turn's.
QList<TurnTap> turnTaps();

// The turn's name for one of its taps (az-<turn8>-g → az-<turn8>).
QString turnOfTap(const QString &tap);

} // namespace arizuko::libvirt
