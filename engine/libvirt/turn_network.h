#pragma once

// A turn's own network: a transient, isolated libvirt network (no
// <forward>, no DNS, no DHCP) whose bridge carries only the host address and
// the guest. Destroyed when the object goes, whatever ended the turn.

#include "core/result.h"
#include "libvirt/connection.h"
#include "libvirt/subnet_pool.h"

#include <QString>
#include <memory>

namespace arizuko::libvirt {

// The network's XML: the bridge is named like the network (az-<turn8>).
QString turnNetworkXml(const QString &name, const TurnSubnet &subnet, const QString &owner);

class TurnNetwork
{
public:
    static Result<std::unique_ptr<TurnNetwork>> create(std::shared_ptr<Connection> connection,
                                                       const QString &name,
                                                       const TurnSubnet &subnet,
                                                       const QString &owner);

    // Takes the first free /30 of the pool (skipping `taken`) and creates the
    // network on it. Another engine may take the same /30 between the look
    // and the creation; then the next one is tried, a bounded number of times.
    static Result<std::unique_ptr<TurnNetwork>> createInPool(std::shared_ptr<Connection> connection,
                                                             const QString &name,
                                                             const SubnetPool &pool,
                                                             QList<Ipv4Range> taken,
                                                             const QString &owner);
    ~TurnNetwork();
    TurnNetwork(const TurnNetwork &) = delete;
    TurnNetwork &operator=(const TurnNetwork &) = delete;

    QString name() const { return m_name; }
    const TurnSubnet &subnet() const { return m_subnet; }

    bool isActive() const { return m_handle != nullptr; }
    // Destroys the network now; later calls and the destructor do nothing.
    Result<void> destroy();

    TurnNetwork(std::shared_ptr<Connection> connection, NetworkHandle handle, QString name,
                TurnSubnet subnet);

private:
    std::shared_ptr<Connection> m_connection;
    NetworkHandle m_handle;
    QString m_name;
    TurnSubnet m_subnet;
};

// Whether creating a network failed because its address range is already in
// use on the host (another engine took the same /30 a moment earlier).
bool isAddressCollision(const Error &error);

// Destroys an active network by name; a network that is already gone is
// not an error.
Result<void> destroyNetworkByName(Connection &connection, const QString &name);

} // namespace arizuko::libvirt
