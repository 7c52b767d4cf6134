#include "libvirt/turn_filter.h"

#include "libvirt/handles.h"
#include "libvirt/libvirt_error.h"

#include <QXmlStreamWriter>

namespace arizuko::libvirt {

QString turnFilterXml()
{
    // Layer 2 (ebtables, root chain): libvirt's own anti-spoofing chains
    // pin the guest's MAC and its IPv4 source address ($IP) in frames and
    // in ARP; then IPv6 frames drop, IPv4 and ARP pass on to the rules
    // below, and every other ethertype drops.
    // Layer 3 (iptables, matched on the bridge port): only TCP from the
    // guest to the proxy and gateway ports, and the replies, pass; all other
    // IPv4 and all IPv6 drops in both directions.
    return QStringLiteral(R"(<filter name='%1' chain='root'>
  <filterref filter='no-mac-spoofing'/>
  <filterref filter='no-ip-spoofing'/>
  <filterref filter='no-arp-spoofing'/>
  <rule action='drop' direction='inout' priority='-700'>
    <mac protocolid='ipv6'/>
  </rule>
  <rule action='accept' direction='inout' priority='-650'>
    <mac protocolid='ipv4'/>
  </rule>
  <rule action='accept' direction='inout' priority='-500'>
    <mac protocolid='arp'/>
  </rule>
  <rule action='accept' direction='out' priority='100'>
    <tcp srcipaddr='$GUEST_IP' dstipaddr='$HOST_IP' dstportstart='$PROXY_PORT' state='NEW,ESTABLISHED'/>
  </rule>
  <rule action='accept' direction='in' priority='100'>
    <tcp srcipaddr='$HOST_IP' srcportstart='$PROXY_PORT' dstipaddr='$GUEST_IP' state='ESTABLISHED'/>
  </rule>
  <rule action='accept' direction='out' priority='100'>
    <tcp srcipaddr='$GUEST_IP' dstipaddr='$HOST_IP' dstportstart='$GATEWAY_PORT' state='NEW,ESTABLISHED'/>
  </rule>
  <rule action='accept' direction='in' priority='100'>
    <tcp srcipaddr='$HOST_IP' srcportstart='$GATEWAY_PORT' dstipaddr='$GUEST_IP' state='ESTABLISHED'/>
  </rule>
  <rule action='drop' direction='inout' priority='900'>
    <all-ipv6/>
  </rule>
  <rule action='drop' direction='inout' priority='1000'>
    <all/>
  </rule>
  <rule action='drop' direction='inout' priority='1000'/>
</filter>
)")
        .arg(QLatin1String(turnFilterName));
}

void writeTurnFilterReference(QXmlStreamWriter &writer, const TurnFilterParameters &parameters)
{
    writer.writeStartElement(QStringLiteral("filterref"));
    writer.writeAttribute(QStringLiteral("filter"), QLatin1String(turnFilterName));
    // IP feeds libvirt's no-ip-spoofing and no-arp-spoofing chains.
    const std::pair<const char *, QString> values[] = {
        {"IP", parameters.guestAddress},
        {"GUEST_IP", parameters.guestAddress},
        {"HOST_IP", parameters.hostAddress},
        {"PROXY_PORT", QString::number(parameters.proxyPort)},
        {"GATEWAY_PORT", QString::number(parameters.gatewayPort)},
    };
    for (const auto &[name, value] : values) {
        writer.writeEmptyElement(QStringLiteral("parameter"));
        writer.writeAttribute(QStringLiteral("name"), QLatin1String(name));
        writer.writeAttribute(QStringLiteral("value"), value);
    }
    writer.writeEndElement();
}

QString turnFilterReferenceXml(const TurnFilterParameters &parameters)
{
    QString xml;
    QXmlStreamWriter writer(&xml);
    writeTurnFilterReference(writer, parameters);
    return xml;
}

Result<void> defineTurnFilter(Connection &connection)
{
    QString definition = turnFilterXml();
    // libvirt refuses a redefinition under a new UUID, so an update names
    // the UUID the filter already has.
    const FilterHandle existing(virNWFilterLookupByName(connection.get(), turnFilterName));
    char uuid[VIR_UUID_STRING_BUFLEN] = {};
    if (existing && virNWFilterGetUUIDString(existing.get(), uuid) == 0) {
        const qsizetype afterOpeningTag = definition.indexOf(QLatin1Char('>')) + 1;
        definition.insert(afterOpeningTag,
                          QStringLiteral("\n  <uuid>%1</uuid>").arg(QLatin1String(uuid)));
    }
    const QByteArray xml = definition.toUtf8();
    const FilterHandle filter(virNWFilterDefineXML(connection.get(), xml.constData()));
    if (!filter)
        return lastLibvirtError(
            QStringLiteral("libvirt.nwfilter"),
            QStringLiteral("defining the nwfilter %1").arg(QLatin1String(turnFilterName)));
    return {};
}

} // namespace arizuko::libvirt
