// A turn's network against the real libvirtd: isolated, no DNS, no DHCP,
// on a /30 the host does not route yet, and gone when the turn is.

#include "libvirt/turn_network.h"
#include "libvirt/turn_owner.h"
#include "libvirt_test_support.h"

#include <QFileInfo>
#include <QNetworkInterface>
#include <QTest>
#include <libvirt/libvirt.h>

using namespace arizuko::libvirt;

namespace {

const Ipv4Range testPool{0x0AD50000, 16}; // 10.213.0.0/16, the default pool

QString networkXml(TurnNetwork &network, Connection &connection)
{
    const QByteArray name = network.name().toUtf8();
    const NetworkHandle handle(virNetworkLookupByName(connection.get(), name.constData()));
    char *xml = handle ? virNetworkGetXMLDesc(handle.get(), 0) : nullptr;
    const QString text = QString::fromUtf8(xml);
    free(xml);
    return text;
}

bool bridgeExists(const QString &name)
{
    return QFileInfo::exists(QStringLiteral("/sys/class/net/") + name);
}

} // namespace

class TestTurnNetwork : public QObject
{
    Q_OBJECT

private slots:
    void createsAnIsolatedNetworkAndDestroysIt()
    {
        auto connection = test::connectOrDie();
        const auto subnet = SubnetPool(testPool).allocate(routedRanges());
        VERIFY_OK(subnet);
        const QString name = test::testTurnName();
        auto network = TurnNetwork::create(connection, name, *subnet, test::testOwner());
        VERIFY_OK(network);

        const QString xml = networkXml(**network, *connection);
        QVERIFY2(!xml.contains(QLatin1String("<forward")), qPrintable(xml));
        QVERIFY2(xml.contains(QLatin1String("<dns enable='no'/>")), qPrintable(xml));
        QVERIFY2(!xml.contains(QLatin1String("<dhcp")), qPrintable(xml));
        QVERIFY2(xml.contains(QStringLiteral("<bridge name='%1'").arg(name)), qPrintable(xml));
        QCOMPARE(ownerFromXml(xml), test::testOwner());

        QVERIFY(bridgeExists(name));
        bool hostAddressOnBridge = false;
        for (const QNetworkAddressEntry &entry :
             QNetworkInterface::interfaceFromName(name).addressEntries())
            hostAddressOnBridge |=
                entry.ip().toString() == subnet->hostAddress() && entry.prefixLength() == 30;
        QVERIFY(hostAddressOnBridge);
        QVERIFY(connection->networkNames()->contains(name));

        (*network).reset();
        QVERIFY(!bridgeExists(name));
        QVERIFY(!connection->networkNames()->contains(name));
    }

    void allocationSkipsARoutedRange()
    {
        auto connection = test::connectOrDie();
        const SubnetPool pool(testPool);
        const auto first = pool.allocate(routedRanges());
        QVERIFY(first.ok());
        auto occupying =
            TurnNetwork::create(connection, test::testTurnName(), *first, test::testOwner());
        VERIFY_OK(occupying);

        // The host now routes the first /30, so the next allocation skips it.
        QList<Ipv4Range> routed = routedRanges();
        bool firstIsRouted = false;
        for (const Ipv4Range &range : routed)
            firstIsRouted |= range.cidr() == first->range.cidr();
        QVERIFY(firstIsRouted);
        const auto second = pool.allocate(routed);
        QVERIFY(second.ok());
        QVERIFY(!second->range.overlaps(first->range));
        QVERIFY(second->range.network > first->range.network);
    }

    void aTakenSubnetIsReportedAsACollision()
    {
        auto connection = test::connectOrDie();
        const auto subnet = SubnetPool(testPool).allocate(routedRanges());
        QVERIFY(subnet.ok());
        auto first =
            TurnNetwork::create(connection, test::testTurnName(), *subnet, test::testOwner());
        VERIFY_OK(first);
        const QString secondName = test::testTurnName();
        auto second = TurnNetwork::create(connection, secondName, *subnet, test::testOwner());
        QVERIFY(!second.ok());
        QVERIFY2(isAddressCollision(second.error()), qPrintable(second.error().message));
        QVERIFY(!bridgeExists(secondName));
    }

    void destroyingByNameToleratesAMissingNetwork()
    {
        auto connection = test::connectOrDie();
        QVERIFY(destroyNetworkByName(*connection, test::testTurnName()).ok());
    }
};

QTEST_GUILESS_MAIN(TestTurnNetwork)
#include "test_turn_network.moc"
