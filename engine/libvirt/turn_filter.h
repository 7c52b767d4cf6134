#pragma once

// The nwfilter every turn's NIC is bound to: defined (or updated) once at
// engine start, parameterized per turn with the guest and host addresses
// and the two host ports the guest may reach.

#include "core/result.h"
#include "libvirt/connection.h"

#include <QString>

class QXmlStreamWriter;

namespace arizuko::libvirt {

inline constexpr const char *turnFilterName = "arizuko-turn";

struct TurnFilterParameters
{
    QString guestAddress;
    QString hostAddress;
    quint16 proxyPort = 0;
    quint16 gatewayPort = 0;
};

QString turnFilterXml();

// The <filterref> for a turn's <interface> or filter binding.
void writeTurnFilterReference(QXmlStreamWriter &writer, const TurnFilterParameters &parameters);
QString turnFilterReferenceXml(const TurnFilterParameters &parameters);

// Defines the filter, or replaces an older definition of it (libvirt then
// re-applies it to running guests).
Result<void> defineTurnFilter(Connection &connection);

} // namespace arizuko::libvirt
