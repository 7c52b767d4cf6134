#include "libvirt/turn_network.h"

#include "libvirt/libvirt_error.h"
#include "libvirt/turn_owner.h"

#include <QXmlStreamWriter>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {

QString turnNetworkXml(const QString &name, const TurnSubnet &subnet, const QString &owner)
{
    QString xml;
    QXmlStreamWriter writer(&xml);
    writer.setAutoFormatting(true);
    writer.writeStartElement(QStringLiteral("network"));
    writer.writeTextElement(QStringLiteral("name"), name);
    writeOwnerMetadata(writer, owner);
    writer.writeEmptyElement(QStringLiteral("bridge"));
    writer.writeAttribute(QStringLiteral("name"), name);
    writer.writeAttribute(QStringLiteral("stp"), QStringLiteral("off"));
    writer.writeAttribute(QStringLiteral("delay"), QStringLiteral("0"));
    // No <forward>: libvirt neither routes nor NATs, so the bridge reaches
    // only the host. DNS off and no <dhcp>: no dnsmasq runs for the turn.
    writer.writeEmptyElement(QStringLiteral("dns"));
    writer.writeAttribute(QStringLiteral("enable"), QStringLiteral("no"));
    writer.writeEmptyElement(QStringLiteral("ip"));
    writer.writeAttribute(QStringLiteral("address"), subnet.hostAddress());
    writer.writeAttribute(QStringLiteral("netmask"), TurnSubnet::netmask());
    writer.writeEndElement();
    return xml;
}

TurnNetwork::TurnNetwork(std::shared_ptr<Connection> connection, NetworkHandle handle, QString name,
                         TurnSubnet subnet)
    : m_connection(std::move(connection))
    , m_handle(std::move(handle))
    , m_name(std::move(name))
    , m_subnet(subnet)
{}

Result<std::unique_ptr<TurnNetwork>> TurnNetwork::create(std::shared_ptr<Connection> connection,
                                                         const QString &name,
                                                         const TurnSubnet &subnet,
                                                         const QString &owner)
{
    const QByteArray xml = turnNetworkXml(name, subnet, owner).toUtf8();
    NetworkHandle handle(virNetworkCreateXML(connection->get(), xml.constData()));
    if (!handle) {
        const bool collision =
            lastLibvirtErrorNumber() == VIR_ERR_INTERNAL_ERROR &&
            QString::fromUtf8(virGetLastErrorMessage()).contains(QLatin1String("already in use"));
        Error error = lastLibvirtError(
            QStringLiteral("libvirt.network"),
            QStringLiteral("creating network %1 on %2").arg(name, subnet.range.cidr()));
        if (collision)
            error.code = QStringLiteral("libvirt.network-collision");
        return error;
    }
    return std::make_unique<TurnNetwork>(std::move(connection), std::move(handle), name, subnet);
}

TurnNetwork::~TurnNetwork()
{
    (void)destroy();
}

Result<void> TurnNetwork::destroy()
{
    if (!m_handle)
        return {};
    const NetworkHandle handle = std::move(m_handle);
    if (virNetworkDestroy(handle.get()) < 0 &&
        stillThereAfterFailedDestroy(virNetworkIsActive(handle.get()), VIR_ERR_NO_NETWORK))
        return lastLibvirtError(QStringLiteral("libvirt.network"),
                                QStringLiteral("destroying network %1").arg(m_name));
    return {};
}

Result<std::unique_ptr<TurnNetwork>>
TurnNetwork::createInPool(std::shared_ptr<Connection> connection, const QString &name,
                          const SubnetPool &pool, QList<Ipv4Range> taken, const QString &owner)
{
    constexpr int maxAttempts = 8;
    for (int attempt = 0; attempt < maxAttempts; ++attempt) {
        const auto subnet = pool.allocate(taken);
        if (!subnet)
            return subnet.error();
        auto network = create(connection, name, *subnet, owner);
        if (network || !isAddressCollision(network.error()))
            return network;
        taken << subnet->range;
    }
    return makeError(QStringLiteral("turns.pool-exhausted"),
                     QStringLiteral("no free /30 found in %1 after %2 attempts")
                         .arg(pool.range().cidr())
                         .arg(maxAttempts));
}

bool isAddressCollision(const Error &error)
{
    return error.code == QLatin1String("libvirt.network-collision");
}

Result<void> destroyNetworkByName(Connection &connection, const QString &name)
{
    const QByteArray nameBytes = name.toUtf8();
    const NetworkHandle network(virNetworkLookupByName(connection.get(), nameBytes.constData()));
    if (!network && lastLibvirtErrorNumber() == VIR_ERR_NO_NETWORK)
        return {};
    if (!network)
        return lastLibvirtError(QStringLiteral("libvirt.network"),
                                QStringLiteral("looking up network %1").arg(name));
    if (virNetworkDestroy(network.get()) < 0 &&
        stillThereAfterFailedDestroy(virNetworkIsActive(network.get()), VIR_ERR_NO_NETWORK))
        return lastLibvirtError(QStringLiteral("libvirt.network"),
                                QStringLiteral("destroying network %1").arg(name));
    return {};
}

} // namespace arizuko::libvirt
