#pragma once

// One connection to the libvirt daemon, shared by every turn of an engine.
// Transient domains are created with VIR_DOMAIN_START_AUTODESTROY, so they
// live exactly as long as this connection: if the engine dies, libvirt
// destroys its VMs.

#include "core/result.h"
#include "libvirt/handles.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace arizuko::libvirt {

class Connection
{
public:
    // Fails with advice when libvirtd cannot be reached (names the URI and
    // how to start it) or refuses us (join the libvirt group).
    static Result<std::shared_ptr<Connection>> open(const QString &uri);
    // The same without the advice: null, and libvirt's own words in `error`,
    // when the daemon cannot be reached (the machine check shows the two apart).
    static std::shared_ptr<Connection> tryOpen(const QString &uri, QString *error);

    virConnectPtr get() const { return m_handle.get(); }
    // False once the daemon went away (a libvirtd restart closes every
    // client connection for good).
    bool isAlive() const { return virConnectIsAlive(m_handle.get()) == 1; }
    QString uri() const { return m_uri; }

    // Names of the active domains / networks, for the reaper and the tests.
    Result<QStringList> domainNames() const;
    Result<QStringList> networkNames() const;
    // Port devices (tap names) that carry an nwfilter binding.
    Result<QStringList> filterBindingPorts() const;

    // The XML of an active network / domain by name; empty when it is gone.
    QString networkXml(const QString &name) const;
    QString domainXml(const QString &name) const;

    // Whether the daemon offers type='kvm' domains at all.
    bool offersKvmDomains() const;
    // The daemon's libvirt version, "9.0.0"; empty if it does not say.
    QString daemonVersion() const;

    Connection(ConnectionHandle handle, QString uri);

private:
    ConnectionHandle m_handle;
    QString m_uri;
};

// What to do about a failed connection to `uri` (start libvirtd, join the
// libvirt group), from libvirt's own words for it.
QString libvirtConnectionHint(const QString &uri, const QString &error);

} // namespace arizuko::libvirt
