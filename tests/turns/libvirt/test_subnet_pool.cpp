// The /30 allocator and the route table reader, without libvirt.

#include "libvirt/subnet_pool.h"

#include <QTest>

using namespace arizuko::libvirt;

class TestSubnetPool : public QObject
{
    Q_OBJECT

private:
    static Ipv4Range range(const char *cidr)
    {
        auto parsed = Ipv4Range::parse(QString::fromLatin1(cidr));
        if (!parsed)
            qFatal("bad test range %s", cidr);
        return *parsed;
    }

private slots:
    void parsesPools()
    {
        QCOMPARE(range("10.213.0.0/16").cidr(), QStringLiteral("10.213.0.0/16"));
        QVERIFY(!Ipv4Range::parse(QStringLiteral("10.213.0.1/16")));  // not the first address
        QVERIFY(!SubnetPool::parse(QStringLiteral("10.213.0.0/31"))); // cannot hold a /30
        QVERIFY(SubnetPool::parse(QStringLiteral("10.213.0.0/30")).ok());
        QVERIFY(!Ipv4Range::parse(QStringLiteral("10.213.0.0"))); // no prefix
        QVERIFY(!Ipv4Range::parse(QStringLiteral("fd00::/64")));  // not IPv4
        QCOMPARE(Ipv4Range::parse(QStringLiteral("nonsense/8")).error().code,
                 QStringLiteral("turns.bad-pool"));
    }

    void firstSubnetHasHostAndGuest()
    {
        const auto subnet = SubnetPool(range("10.213.0.0/16")).allocate({});
        QVERIFY(subnet.ok());
        QCOMPARE(subnet->range.cidr(), QStringLiteral("10.213.0.0/30"));
        QCOMPARE(subnet->hostAddress(), QStringLiteral("10.213.0.1"));
        QCOMPARE(subnet->guestAddress(), QStringLiteral("10.213.0.2"));
    }

    void skipsTakenRanges()
    {
        const SubnetPool pool(range("10.213.0.0/16"));
        QCOMPARE(pool.allocate({range("10.213.0.0/30")})->range.cidr(),
                 QStringLiteral("10.213.0.4/30"));
        // A host route inside the second /30 takes it too.
        QCOMPARE(pool.allocate({range("10.213.0.0/30"), range("10.213.0.5/32")})->range.cidr(),
                 QStringLiteral("10.213.0.8/30"));
        // A routed /24 at the start of the pool is skipped as a whole.
        QCOMPARE(pool.allocate({range("10.213.0.0/24")})->range.cidr(),
                 QStringLiteral("10.213.1.0/30"));
        // A route covering the whole pool leaves nothing.
        QCOMPARE(pool.allocate({range("10.0.0.0/8")}).error().code,
                 QStringLiteral("turns.pool-exhausted"));
    }

    void exhaustsSmallPools()
    {
        const SubnetPool pool(range("10.213.7.0/29"));
        QCOMPARE(pool.allocate({range("10.213.7.0/30")})->range.cidr(),
                 QStringLiteral("10.213.7.4/30"));
        const auto none = pool.allocate({range("10.213.7.0/30"), range("10.213.7.4/30")});
        QVERIFY(!none);
        QCOMPARE(none.error().code, QStringLiteral("turns.pool-exhausted"));
        QVERIFY2(none.error().message.contains(QStringLiteral("10.213.7.0/29")),
                 qPrintable(none.error().message));
    }

    void readsTheRouteTable()
    {
        // /proc/net/route prints addresses as little-endian hex words.
        const QByteArray table =
            "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
            "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
            "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            "az-1\t0000D50A\t00000000\t0001\t0\t0\t0\tFCFFFFFF\t0\t0\t0\n";
        const QList<Ipv4Range> ranges = parseRouteTable(table);
        QCOMPARE(ranges.size(), 2); // the default route is not a network
        QCOMPARE(ranges[0].cidr(), QStringLiteral("192.0.2.0/24"));
        QCOMPARE(ranges[1].cidr(), QStringLiteral("10.213.0.0/30"));
    }
};

QTEST_GUILESS_MAIN(TestSubnetPool)
#include "test_subnet_pool.moc"
