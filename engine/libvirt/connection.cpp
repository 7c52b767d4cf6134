#include "libvirt/connection.h"

#include "libvirt/libvirt_error.h"

#include <cstdlib>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {

Connection::Connection(ConnectionHandle handle, QString uri)
    : m_handle(std::move(handle))
    , m_uri(std::move(uri))
{}

QString libvirtConnectionHint(const QString &uri, const QString &error)
{
    if (error.contains(QLatin1String("Permission denied"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("authentication"), Qt::CaseInsensitive))
        return QStringLiteral(
            "join the libvirt group (sudo adduser $USER libvirt), then log in again");
    if (error.contains(QLatin1String("No such file"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("Connection refused"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("Failed to connect socket"), Qt::CaseInsensitive))
        return QStringLiteral("is libvirtd running? start it with `sudo systemctl start libvirtd` "
                              "(or `./dev setup` in a source tree), then retry %1")
            .arg(uri);
    return QStringLiteral("check that libvirtd runs and that %1 is the right URI").arg(uri);
}

std::shared_ptr<Connection> Connection::tryOpen(const QString &uri, QString *error)
{
    silenceLibvirtErrors();
    const QByteArray uriBytes = uri.toUtf8();
    ConnectionHandle handle(virConnectOpen(uriBytes.constData()));
    if (!handle) {
        *error = QString::fromUtf8(virGetLastErrorMessage());
        return nullptr;
    }
    return std::make_shared<Connection>(std::move(handle), uri);
}

Result<std::shared_ptr<Connection>> Connection::open(const QString &uri)
{
    QString error;
    std::shared_ptr<Connection> connection = tryOpen(uri, &error);
    if (!connection)
        return makeError(QStringLiteral("libvirt.unreachable"),
                         QStringLiteral("cannot connect to libvirt at %1: %2 — %3")
                             .arg(uri, error, libvirtConnectionHint(uri, error)));
    return connection;
}

Result<QStringList> Connection::domainNames() const
{
    virDomainPtr *domains = nullptr;
    const int count = virConnectListAllDomains(get(), &domains, VIR_CONNECT_LIST_DOMAINS_ACTIVE);
    if (count < 0)
        return lastLibvirtError(QStringLiteral("libvirt.list"), QStringLiteral("listing domains"));
    QStringList names;
    for (int index = 0; index < count; ++index) {
        const DomainHandle domain(domains[index]);
        names << QString::fromUtf8(virDomainGetName(domain.get()));
    }
    std::free(domains);
    return names;
}

Result<QStringList> Connection::networkNames() const
{
    virNetworkPtr *networks = nullptr;
    const int count = virConnectListAllNetworks(get(), &networks, VIR_CONNECT_LIST_NETWORKS_ACTIVE);
    if (count < 0)
        return lastLibvirtError(QStringLiteral("libvirt.list"), QStringLiteral("listing networks"));
    QStringList names;
    for (int index = 0; index < count; ++index) {
        const NetworkHandle network(networks[index]);
        names << QString::fromUtf8(virNetworkGetName(network.get()));
    }
    std::free(networks);
    return names;
}

Result<QStringList> Connection::filterBindingPorts() const
{
    virNWFilterBindingPtr *bindings = nullptr;
    const int count = virConnectListAllNWFilterBindings(get(), &bindings, 0);
    if (count < 0)
        return lastLibvirtError(QStringLiteral("libvirt.list"),
                                QStringLiteral("listing nwfilter bindings"));
    QStringList ports;
    for (int index = 0; index < count; ++index) {
        const FilterBindingHandle binding(bindings[index]);
        ports << QString::fromUtf8(virNWFilterBindingGetPortDev(binding.get()));
    }
    std::free(bindings);
    return ports;
}

QString Connection::networkXml(const QString &name) const
{
    const QByteArray nameBytes = name.toUtf8();
    const NetworkHandle network(virNetworkLookupByName(get(), nameBytes.constData()));
    char *xml = network ? virNetworkGetXMLDesc(network.get(), 0) : nullptr;
    const QString text = QString::fromUtf8(xml);
    std::free(xml);
    return text;
}

QString Connection::domainXml(const QString &name) const
{
    const QByteArray nameBytes = name.toUtf8();
    const DomainHandle domain(virDomainLookupByName(get(), nameBytes.constData()));
    char *xml = domain ? virDomainGetXMLDesc(domain.get(), 0) : nullptr;
    const QString text = QString::fromUtf8(xml);
    std::free(xml);
    return text;
}

bool Connection::offersKvmDomains() const
{
    char *capabilities =
        virConnectGetDomainCapabilities(get(), nullptr, "x86_64", nullptr, "kvm", 0);
    std::free(capabilities);
    return capabilities != nullptr;
}

QString Connection::daemonVersion() const
{
    unsigned long version = 0;
    if (virConnectGetLibVersion(get(), &version) != 0)
        return {};
    return QStringLiteral("%1.%2.%3")
        .arg(version / 1000000)
        .arg((version / 1000) % 1000)
        .arg(version % 1000);
}

} // namespace arizuko::libvirt
