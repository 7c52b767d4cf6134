#include "libvirt/turn_domain.h"

#include "libvirt/libvirt_error.h"
#include "libvirt/turn_owner.h"

#include <QFile>
#include <QRandomGenerator>
#include <QXmlStreamWriter>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {
namespace {

void writeElement(QXmlStreamWriter &writer, const QString &name,
                  const QList<std::pair<QString, QString>> &attributes)
{
    writer.writeEmptyElement(name);
    for (const auto &[attribute, value] : attributes)
        writer.writeAttribute(attribute, value);
}

void writeCpu(QXmlStreamWriter &writer, host::Accelerator accelerator)
{
    // TCG's default CPU lacks instructions Claude Code's binary uses
    // ("Illegal instruction"); 'maximum' enables all TCG can emulate.
    writeElement(writer, QStringLiteral("cpu"),
                 {{QStringLiteral("mode"), accelerator == host::Accelerator::Kvm
                                               ? QStringLiteral("host-passthrough")
                                               : QStringLiteral("maximum")}});
}

void writeChannel(QXmlStreamWriter &writer, const QString &socketPath, const QString &channelName)
{
    writer.writeStartElement(QStringLiteral("channel"));
    writer.writeAttribute(QStringLiteral("type"), QStringLiteral("unix"));
    writeElement(
        writer, QStringLiteral("source"),
        {{QStringLiteral("mode"), QStringLiteral("bind")}, {QStringLiteral("path"), socketPath}});
    writeElement(writer, QStringLiteral("target"),
                 {{QStringLiteral("type"), QStringLiteral("virtio")},
                  {QStringLiteral("name"), channelName}});
    writer.writeEndElement();
}

void writeInterface(QXmlStreamWriter &writer, const TurnDomainSpec &spec)
{
    const bool pretap = spec.filterMode == FilterMode::Pretap;
    writer.writeStartElement(QStringLiteral("interface"));
    writer.writeAttribute(QStringLiteral("type"),
                          pretap ? QStringLiteral("ethernet") : QStringLiteral("network"));
    if (!pretap)
        writeElement(writer, QStringLiteral("source"),
                     {{QStringLiteral("network"), spec.networkName}});
    writeElement(writer, QStringLiteral("mac"), {{QStringLiteral("address"), spec.macAddress}});
    if (pretap)
        writeElement(writer, QStringLiteral("target"),
                     {{QStringLiteral("dev"), spec.tapName},
                      {QStringLiteral("managed"), QStringLiteral("no")}});
    else
        writeElement(writer, QStringLiteral("target"), {{QStringLiteral("dev"), spec.tapName}});
    writeElement(writer, QStringLiteral("model"),
                 {{QStringLiteral("type"), QStringLiteral("virtio")}});
    if (!pretap)
        writeTurnFilterReference(writer, spec.filter);
    writer.writeEndElement();
}

void writeConsole(QXmlStreamWriter &writer, const QString &element, const QString &logPath,
                  const QList<std::pair<QString, QString>> &target)
{
    writer.writeStartElement(element);
    writer.writeAttribute(QStringLiteral("type"), QStringLiteral("file"));
    // append: libvirt writes into the file the engine made (create()), which
    // stays the engine's user's; otherwise it makes a new one, 0600 root.
    writeElement(
        writer, QStringLiteral("source"),
        {{QStringLiteral("path"), logPath}, {QStringLiteral("append"), QStringLiteral("on")}});
    writeElement(writer, QStringLiteral("target"), target);
    writer.writeEndElement();
}

} // namespace

QString turnDomainXml(const TurnDomainSpec &spec)
{
    const bool kvm = spec.accelerator == host::Accelerator::Kvm;
    QString xml;
    QXmlStreamWriter writer(&xml);
    writer.setAutoFormatting(true);
    writer.writeStartElement(QStringLiteral("domain"));
    writer.writeAttribute(QStringLiteral("type"),
                          kvm ? QStringLiteral("kvm") : QStringLiteral("qemu"));
    writer.writeTextElement(QStringLiteral("name"), spec.name);
    if (!spec.uuid.isEmpty())
        writer.writeTextElement(QStringLiteral("uuid"), spec.uuid);
    writeOwnerMetadata(writer, spec.owner);
    writer.writeStartElement(QStringLiteral("memory"));
    writer.writeAttribute(QStringLiteral("unit"), QStringLiteral("MiB"));
    writer.writeCharacters(QString::number(spec.memoryMiB));
    writer.writeEndElement();
    writer.writeTextElement(QStringLiteral("vcpu"), QString::number(spec.vcpus));

    writer.writeStartElement(QStringLiteral("os"));
    writer.writeStartElement(QStringLiteral("type"));
    writer.writeAttribute(QStringLiteral("arch"), QStringLiteral("x86_64"));
    writer.writeAttribute(QStringLiteral("machine"), QStringLiteral("pc"));
    writer.writeCharacters(QStringLiteral("hvm"));
    writer.writeEndElement();
    writer.writeTextElement(QStringLiteral("kernel"), spec.kernel);
    writer.writeTextElement(QStringLiteral("initrd"), spec.initramfs);
    writer.writeTextElement(QStringLiteral("cmdline"), spec.kernelCommandLine);
    writer.writeEndElement();
    // ACPI lets the guest's power-off end QEMU at once; without it the guest
    // only halts and teardown waits out the exit grace period.
    writer.writeStartElement(QStringLiteral("features"));
    writer.writeEmptyElement(QStringLiteral("acpi"));
    writer.writeEndElement();
    writeCpu(writer, spec.accelerator);
    // Whatever way the guest stops, the VM ends; the engine then tears down.
    for (const char *event : {"on_poweroff", "on_reboot", "on_crash"})
        writer.writeTextElement(QLatin1String(event), QStringLiteral("destroy"));

    writer.writeStartElement(QStringLiteral("devices"));
    writer.writeStartElement(QStringLiteral("disk"));
    writer.writeAttribute(QStringLiteral("type"), QStringLiteral("file"));
    writer.writeAttribute(QStringLiteral("device"), QStringLiteral("disk"));
    writeElement(writer, QStringLiteral("driver"),
                 {{QStringLiteral("name"), QStringLiteral("qemu")},
                  {QStringLiteral("type"), QStringLiteral("raw")}});
    writeElement(writer, QStringLiteral("source"), {{QStringLiteral("file"), spec.rootImage}});
    writeElement(writer, QStringLiteral("target"),
                 {{QStringLiteral("dev"), QStringLiteral("vda")},
                  {QStringLiteral("bus"), QStringLiteral("virtio")}});
    writer.writeEmptyElement(QStringLiteral("readonly"));
    writer.writeEndElement();

    writer.writeStartElement(QStringLiteral("filesystem"));
    writer.writeAttribute(QStringLiteral("type"), QStringLiteral("mount"));
    writer.writeAttribute(QStringLiteral("accessmode"), QStringLiteral("passthrough"));
    writeElement(writer, QStringLiteral("source"), {{QStringLiteral("dir"), spec.homeDirectory}});
    writeElement(writer, QStringLiteral("target"),
                 {{QStringLiteral("dir"), QStringLiteral("home")}});
    writer.writeEndElement();

    writeInterface(writer, spec);
    writeChannel(writer, spec.turnSocketPath, QStringLiteral("org.arizuko.turn"));
    writeChannel(writer, spec.mcpSocketPath, QStringLiteral("org.arizuko.mcp"));
    writeConsole(writer, QStringLiteral("serial"), spec.consoleLogPath,
                 {{QStringLiteral("port"), QStringLiteral("0")}});
    writeConsole(writer, QStringLiteral("console"), spec.consoleLogPath,
                 {{QStringLiteral("type"), QStringLiteral("serial")},
                  {QStringLiteral("port"), QStringLiteral("0")}});
    // TLS in the guest needs entropy early; no display, no USB, no balloon.
    writer.writeStartElement(QStringLiteral("rng"));
    writer.writeAttribute(QStringLiteral("model"), QStringLiteral("virtio"));
    writer.writeStartElement(QStringLiteral("backend"));
    writer.writeAttribute(QStringLiteral("model"), QStringLiteral("random"));
    writer.writeCharacters(QStringLiteral("/dev/urandom"));
    writer.writeEndElement();
    writer.writeEndElement();
    writeElement(writer, QStringLiteral("controller"),
                 {{QStringLiteral("type"), QStringLiteral("usb")},
                  {QStringLiteral("model"), QStringLiteral("none")}});
    writeElement(writer, QStringLiteral("memballoon"),
                 {{QStringLiteral("model"), QStringLiteral("none")}});
    writer.writeEndElement(); // devices

    writer.writeStartElement(QStringLiteral("seclabel"));
    writer.writeAttribute(QStringLiteral("type"), QStringLiteral("static"));
    writer.writeAttribute(QStringLiteral("model"), QStringLiteral("dac"));
    writer.writeAttribute(QStringLiteral("relabel"), QStringLiteral("no"));
    writer.writeTextElement(QStringLiteral("label"),
                            QStringLiteral("+%1:+%2").arg(spec.uid).arg(spec.gid));
    writer.writeEndElement();
    writer.writeEndElement(); // domain
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
    // Made here so that the engine can read it back (the boot limit quotes
    // its tail) when it is not root.
    QFile consoleLog(spec.consoleLogPath);
    if (!consoleLog.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return makeError(QStringLiteral("libvirt.domain"),
                         QStringLiteral("cannot create the console log %1: %2")
                             .arg(spec.consoleLogPath, consoleLog.errorString()));
    consoleLog.close();
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
