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
        const QString name = test::testTurnName();
        auto network = TurnNetwork::createInPool(connection, name, SubnetPool(testPool),
                                                 routedRanges(), test::testOwner());
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
            hostAddressOnBridge |= entry.ip().toString() == (*network)->subnet().hostAddress() &&
                                   entry.prefixLength() == 30;
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
        auto occupying = TurnNetwork::createInPool(connection, test::testTurnName(), pool,
                                                   routedRanges(), test::testOwner());
        VERIFY_OK(occupying);
        const TurnSubnet *first = &(*occupying)->subnet();

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
        auto first =
            TurnNetwork::createInPool(connection, test::testTurnName(), SubnetPool(testPool),
                                      routedRanges(), test::testOwner());
        VERIFY_OK(first);
        const QString secondName = test::testTurnName();
        auto second =
            TurnNetwork::create(connection, secondName, (*first)->subnet(), test::testOwner());
        QVERIFY(!second.ok());
        QVERIFY2(isAddressCollision(second.error()), qPrintable(second.error().message));
        QVERIFY(!bridgeExists(secondName));
    }

    void aPoolCreationMovesPastASubnetTakenMeanwhile()
    {
        // As if another engine created its network between our look at the
        // routes and our creation: the pool is asked with nothing taken, so
        // its first choice collides, and the next free /30 is used instead.
        auto connection = test::connectOrDie();
        const SubnetPool pool(testPool);
        auto first = TurnNetwork::createInPool(connection, test::testTurnName(), pool,
                                               routedRanges(), test::testOwner());
        VERIFY_OK(first);
        QList<Ipv4Range> takenBeforeFirst = routedRanges();
        takenBeforeFirst.removeIf(
            [&](const Ipv4Range &range) { return range.overlaps((*first)->subnet().range); });
        auto second = TurnNetwork::createInPool(connection, test::testTurnName(), pool,
                                                takenBeforeFirst, test::testOwner());
        VERIFY_OK(second);
        QVERIFY(!(*second)->subnet().range.overlaps((*first)->subnet().range));
    }

    void destroyingByNameToleratesAMissingNetwork()
    {
        auto connection = test::connectOrDie();
        QVERIFY(destroyNetworkByName(*connection, test::testTurnName()).ok());
    }
};

QTEST_GUILESS_MAIN(TestTurnNetwork)
#include "test_turn_network.moc"
