#include "libvirt/turn_domain.h"

#include "libvirt/libvirt_error.h"
#include "libvirt/turn_owner.h"

#include <QRandomGenerator>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {
namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString cpuXml(host::Accelerator accelerator)
{
    // TCG's default CPU lacks instructions Claude Code's binary uses
    // ("Illegal instruction"); 'maximum' enables all TCG can emulate.
    return accelerator == host::Accelerator::Kvm ? QStringLiteral("<cpu mode='host-passthrough'/>")
                                                 : QStringLiteral("<cpu mode='maximum'/>");
}

QString channelXml(const QString &socketPath, const QString &channelName)
{
    return QStringLiteral("    <channel type='unix'>\n"
                          "      <source mode='bind' path='%1'/>\n"
                          "      <target type='virtio' name='%2'/>\n"
                          "    </channel>\n")
        .arg(escaped(socketPath), channelName);
}

} // namespace

QString turnDomainXml(const TurnDomainSpec &spec)
{
    const bool kvm = spec.accelerator == host::Accelerator::Kvm;
    QString xml;
    xml += QStringLiteral("<domain type='%1'>\n")
               .arg(kvm ? QStringLiteral("kvm") : QStringLiteral("qemu"));
    xml += QStringLiteral("  <name>%1</name>\n").arg(spec.name);
    xml += ownerMetadataXml(spec.owner);
    xml += QStringLiteral("  <memory unit='MiB'>%1</memory>\n").arg(spec.memoryMiB);
    xml += QStringLiteral("  <vcpu>%1</vcpu>\n").arg(spec.vcpus);
    xml += QStringLiteral("  <os>\n"
                          "    <type arch='x86_64' machine='pc'>hvm</type>\n"
                          "    <kernel>%1</kernel>\n"
                          "    <initrd>%2</initrd>\n"
                          "    <cmdline>%3</cmdline>\n"
                          "  </os>\n")
               .arg(escaped(spec.kernel), escaped(spec.initramfs), escaped(spec.kernelCommandLine));
    // ACPI lets the guest's power-off end QEMU at once; without it the guest
    // only halts and teardown waits out the exit grace period.
    xml += QStringLiteral("  <features><acpi/></features>\n");
    xml += QStringLiteral("  %1\n").arg(cpuXml(spec.accelerator));
    // Whatever way the guest stops, the VM ends; the engine then tears down.
    xml += QStringLiteral("  <on_poweroff>destroy</on_poweroff>\n"
                          "  <on_reboot>destroy</on_reboot>\n"
                          "  <on_crash>destroy</on_crash>\n");
    xml += QStringLiteral("  <devices>\n");
    xml += QStringLiteral("    <disk type='file' device='disk'>\n"
                          "      <driver name='qemu' type='raw'/>\n"
                          "      <source file='%1'/>\n"
                          "      <target dev='vda' bus='virtio'/>\n"
                          "      <readonly/>\n"
                          "    </disk>\n")
               .arg(escaped(spec.rootImage));
    xml += QStringLiteral("    <filesystem type='mount' accessmode='passthrough'>\n"
                          "      <source dir='%1'/>\n"
                          "      <target dir='home'/>\n"
                          "    </filesystem>\n")
               .arg(escaped(spec.homeDirectory));
    xml += QStringLiteral("    <interface type='network'>\n"
                          "      <source network='%1'/>\n"
                          "      <mac address='%2'/>\n"
                          "      <target dev='%3'/>\n"
                          "      <model type='virtio'/>\n")
               .arg(spec.networkName, spec.macAddress, spec.tapName);
    xml += turnFilterReferenceXml(spec.filter);
    xml += QStringLiteral("    </interface>\n");
    xml += channelXml(spec.turnSocketPath, QStringLiteral("org.arizuko.turn"));
    xml += channelXml(spec.mcpSocketPath, QStringLiteral("org.arizuko.mcp"));
    xml += QStringLiteral("    <serial type='file'>\n"
                          "      <source path='%1'/>\n"
                          "      <target port='0'/>\n"
                          "    </serial>\n"
                          "    <console type='file'>\n"
                          "      <source path='%1'/>\n"
                          "      <target type='serial' port='0'/>\n"
                          "    </console>\n")
               .arg(escaped(spec.consoleLogPath));
    // TLS in the guest needs entropy early; no display, no USB, no balloon.
    xml += QStringLiteral(
        "    <rng model='virtio'><backend model='random'>/dev/urandom</backend></rng>\n"
        "    <controller type='usb' model='none'/>\n"
        "    <memballoon model='none'/>\n"
        "  </devices>\n");
    xml += QStringLiteral("  <seclabel type='static' model='dac' relabel='no'>\n"
                          "    <label>+%1:+%2</label>\n"
                          "  </seclabel>\n")
               .arg(spec.uid)
               .arg(spec.gid);
    xml += QStringLiteral("</domain>\n");
    return xml;
}

QString randomMacAddress()
{
    const quint32 random = QRandomGenerator::system()->generate();
    return QStringLiteral("52:54:00:%1:%2:%3")
        .arg((random >> 16) & 0xff, 2, 16, QLatin1Char('0'))
        .arg((random >> 8) & 0xff, 2, 16, QLatin1Char('0'))
        .arg(random & 0xff, 2, 16, QLatin1Char('0'));
}

TurnDomain::TurnDomain(std::shared_ptr<Connection> connection, DomainHandle handle, QString name)
    : m_connection(std::move(connection))
    , m_handle(std::move(handle))
    , m_name(std::move(name))
{}

Result<std::unique_ptr<TurnDomain>> TurnDomain::create(std::shared_ptr<Connection> connection,
                                                       const TurnDomainSpec &spec)
{
    const QByteArray xml = turnDomainXml(spec).toUtf8();
    DomainHandle handle(
        virDomainCreateXML(connection->get(), xml.constData(), VIR_DOMAIN_START_AUTODESTROY));
    if (!handle)
        return lastLibvirtError(QStringLiteral("libvirt.domain"),
                                QStringLiteral("creating the turn VM %1").arg(spec.name));
    return std::make_unique<TurnDomain>(std::move(connection), std::move(handle), spec.name);
}

TurnDomain::~TurnDomain()
{
    (void)destroy();
}

Result<void> TurnDomain::destroy()
{
    if (!m_handle)
        return {};
    const DomainHandle handle = std::move(m_handle);
    // A guest that powered off has already vanished (transient domain).
    if (virDomainDestroy(handle.get()) < 0 &&
        stillThereAfterFailedDestroy(virDomainIsActive(handle.get()), VIR_ERR_NO_DOMAIN))
        return lastLibvirtError(QStringLiteral("libvirt.domain"),
                                QStringLiteral("destroying the turn VM %1").arg(m_name));
    return {};
}

Result<void> destroyDomainByName(Connection &connection, const QString &name)
{
    const QByteArray nameBytes = name.toUtf8();
    const DomainHandle domain(virDomainLookupByName(connection.get(), nameBytes.constData()));
    if (!domain && lastLibvirtErrorNumber() == VIR_ERR_NO_DOMAIN)
        return {};
    if (!domain)
        return lastLibvirtError(QStringLiteral("libvirt.domain"),
                                QStringLiteral("looking up VM %1").arg(name));
    if (virDomainDestroy(domain.get()) < 0 &&
        stillThereAfterFailedDestroy(virDomainIsActive(domain.get()), VIR_ERR_NO_DOMAIN))
        return lastLibvirtError(QStringLiteral("libvirt.domain"),
                                QStringLiteral("destroying VM %1").arg(name));
    return {};
}

} // namespace arizuko::libvirt
