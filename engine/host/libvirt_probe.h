#pragma once

// Checks that the libvirt daemon answers at a URI and what it offers, and
// turns its failures into advice a person can act on.

#include <QString>

namespace arizuko::host {

struct LibvirtStatus
{
    QString uri;
    bool reachable = false;
    QString version;        // of the daemon, "9.0.0"
    bool kvmDomains = false; // domain capabilities offer type='kvm'
    QString error;          // libvirt's own words when unreachable
    QString hint;           // what to do about it
};

LibvirtStatus probeLibvirt(const QString &uri);

// The hint for a libvirt connection error, shared by every caller that
// opens a connection.
QString libvirtConnectionHint(const QString &uri, const QString &error);

} // namespace arizuko::host
