#pragma once

// The arizuko-turn filter bound to a turn's own tap, made by the engine
// (virNWFilterBindingCreateXML) rather than by libvirt during the domain's
// start, so its ~1.4 s of ebtables/iptables calls run beside the VM's boot.
// A binding is trusted only once its rules are seen in the kernel's tables:
// libvirt reports success for a binding whose tap is missing, with no rules.

#include "core/result.h"
#include "libvirt/connection.h"
#include "libvirt/turn_filter.h"

#include <QString>
#include <QStringList>

namespace arizuko::libvirt {

struct TurnFilterBindingSpec
{
    QString ownerName; // the domain's name
    QString ownerUuid; // the domain's UUID
    QString tap;
    QString macAddress;
    TurnFilterParameters filter;
};

QString turnFilterBindingXml(const TurnFilterBindingSpec &spec);

Result<void> createTurnFilterBinding(Connection &connection, const TurnFilterBindingSpec &spec);

// Deletes the binding on `tap` (its rules go with it); none is not an error.
Result<void> deleteTurnFilterBinding(Connection &connection, const QString &tap);

// What the kernel's tables must hold for `tap` before its guest may send a
// frame, given the listings of `iptables -S`, `ip6tables -S` and
// `ebtables -t nat -L`: one sentence per missing piece, empty when complete.
QStringList missingTurnFilterRules(const QString &tap, const TurnFilterParameters &parameters,
                                   const QString &iptables, const QString &ip6tables,
                                   const QString &ebtables);

// Reads the three tables and fails (libvirt.nwfilter-missing, naming what
// is missing) unless the turn's rules are all in place.
Result<void> verifyTurnFilterRules(const QString &tap, const TurnFilterParameters &parameters);

// Forgets every connection the kernel tracks to or from `guestAddress`: a
// /30 is reused by later turns, and a tracked ESTABLISHED flow of an
// earlier one must not pass this turn's filter.
// `bridge` is the turn's: the helper (net_admin.h) flushes only the address
// of the guest on a turn's bridge.
Result<void> flushTurnConntrack(const QString &bridge, const QString &guestAddress);

} // namespace arizuko::libvirt
