#include "host/libvirt_probe.h"

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include <memory>

namespace arizuko::host {
namespace {

// libvirt prints every error to stderr unless told otherwise; we report
// errors ourselves, with advice.
void ignoreLibvirtError(void *, virErrorPtr) {}

struct ConnectionCloser
{
    void operator()(virConnectPtr connection) const { virConnectClose(connection); }
};
using Connection = std::unique_ptr<virConnect, ConnectionCloser>;

QString versionString(unsigned long version)
{
    return QStringLiteral("%1.%2.%3")
        .arg(version / 1000000)
        .arg((version / 1000) % 1000)
        .arg(version % 1000);
}

} // namespace

QString libvirtConnectionHint(const QString &uri, const QString &error)
{
    if (error.contains(QLatin1String("Permission denied"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("authentication"), Qt::CaseInsensitive))
        return QStringLiteral("join the libvirt group (sudo adduser $USER libvirt), then log in again");
    if (error.contains(QLatin1String("No such file"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("Connection refused"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("Failed to connect socket"), Qt::CaseInsensitive))
        return QStringLiteral("is libvirtd running? start it with `sudo systemctl start libvirtd` "
                              "(or `./dev setup` in a source tree), then retry %1")
            .arg(uri);
    return QStringLiteral("check that libvirtd runs and that %1 is the right URI").arg(uri);
}

LibvirtStatus probeLibvirt(const QString &uri)
{
    virSetErrorFunc(nullptr, ignoreLibvirtError);
    LibvirtStatus status;
    status.uri = uri;

    const QByteArray uriBytes = uri.toUtf8();
    Connection connection(virConnectOpen(uriBytes.constData()));
    if (!connection) {
        status.error = QString::fromUtf8(virGetLastErrorMessage());
        status.hint = libvirtConnectionHint(uri, status.error);
        return status;
    }
    status.reachable = true;

    unsigned long version = 0;
    if (virConnectGetLibVersion(connection.get(), &version) == 0)
        status.version = versionString(version);

    char *capabilities = virConnectGetDomainCapabilities(connection.get(), nullptr, "x86_64",
                                                         nullptr, "kvm", 0);
    status.kvmDomains = capabilities != nullptr;
    free(capabilities);
    return status;
}

} // namespace arizuko::host
