// The arizuko-turn nwfilter against the real libvirtd: defined and updated
// in place, and bound to a turn NIC with that turn's parameters, which the
// kernel's filter tables then carry until the VM goes.

#include "libvirt/subnet_pool.h"
#include "libvirt/turn_filter.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_owner.h"
#include "libvirt_test_support.h"

#include <QProcess>
#include <QTest>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

using namespace arizuko::libvirt;

namespace {

QString run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    process.waitForFinished(10000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

// A VM with just the turn NIC: it sits in the firmware looking for a boot
// disk, which is all a filter binding needs.
QString nicOnlyDomainXml(const QString &name, const QString &network, const QString &tap,
                         const TurnFilterParameters &parameters)
{
    return QStringLiteral("<domain type='qemu'><name>%1</name>%5<memory unit='MiB'>64</memory>"
                          "<os><type arch='x86_64' machine='pc'>hvm</type></os><devices>"
                          "<interface type='network'><source network='%2'/><target dev='%3'/>"
                          "<model type='virtio'/>%4</interface><memballoon model='none'/></devices>"
                          "</domain>")
        .arg(name, network, tap, turnFilterReferenceXml(parameters),
             ownerMetadataXml(test::testOwner()));
}

} // namespace

class TestTurnFilter : public QObject
{
    Q_OBJECT

private slots:
    void isDefinedAndUpdatedInPlace()
    {
        auto connection = test::connectOrDie();
        QVERIFY(defineTurnFilter(*connection).ok());
        // Defining again (every engine start does) updates, never conflicts.
        const arizuko::Result<void> again = defineTurnFilter(*connection);
        VERIFY_OK(again);
        const FilterHandle filter(virNWFilterLookupByName(connection->get(), turnFilterName));
        QVERIFY(filter);
        char *xml = virNWFilterGetXMLDesc(filter.get(), 0);
        const QString text = QString::fromUtf8(xml);
        free(xml);
        for (const char *expected :
             {"$GUEST_IP", "$HOST_IP", "$PROXY_PORT", "$GATEWAY_PORT", "<all-ipv6",
              "no-ip-spoofing", "no-mac-spoofing", "no-arp-spoofing", "protocolid='ipv6'"})
            QVERIFY2(text.contains(QLatin1String(expected)), expected);
    }

    void isBoundToATurnNicWithItsParameters()
    {
        auto connection = test::connectOrDie();
        QVERIFY(defineTurnFilter(*connection).ok());
        const QString name = test::testTurnName();
        auto network = TurnNetwork::createInPool(connection, name, SubnetPool(Ipv4Range{0x0AD50000, 16}),
                                                 routedRanges(), test::testOwner());
        VERIFY_OK(network);

        const QString tap = name + QStringLiteral("-g");
        const TurnFilterParameters parameters{(*network)->subnet().guestAddress(), (*network)->subnet().hostAddress(), 40123,
                                              40124};
        const QByteArray xml = nicOnlyDomainXml(name, name, tap, parameters).toUtf8();
        const DomainHandle domain(
            virDomainCreateXML(connection->get(), xml.constData(), VIR_DOMAIN_START_AUTODESTROY));
        QVERIFY2(domain, virGetLastErrorMessage());

        QVERIFY(connection->filterBindingPorts()->contains(tap));
        const QString iptables = run(QStringLiteral("iptables"), {QStringLiteral("-S")});
        const QString guestToProxy = QStringLiteral("-s %1/32 -d %2/32 -p tcp -m tcp --dport 40123")
                                         .arg((*network)->subnet().guestAddress(), (*network)->subnet().hostAddress());
        QVERIFY2(iptables.contains(guestToProxy), qPrintable(iptables));
        QVERIFY2(iptables.contains(QStringLiteral("--dport 40124")), qPrintable(iptables));
        const QString ebtables =
            run(QStringLiteral("ebtables"),
                {QStringLiteral("-t"), QStringLiteral("nat"), QStringLiteral("-L")});
        QVERIFY2(ebtables.contains(tap.left(12)) ||
                     ebtables.contains(QStringLiteral("IPv6 -j DROP")),
                 qPrintable(ebtables));

        QVERIFY(virDomainDestroy(domain.get()) == 0);
        QVERIFY(!connection->filterBindingPorts()->contains(tap));
        QVERIFY(!run(QStringLiteral("iptables"), {QStringLiteral("-S")}).contains(guestToProxy));
    }
};

QTEST_GUILESS_MAIN(TestTurnFilter)
#include "test_turn_filter.moc"
