// The Pretap way of filtering a turn against the real libvirtd and kernel
// tables: the engine's own tap on the turn's bridge, the binding made for
// it, and the check that refuses to trust a binding whose rules are not in
// force. libvirt reports success for a binding made before its tap exists,
// with no rules at all: the check must catch exactly that.

#include "libvirt/subnet_pool.h"
#include "libvirt/turn_filter.h"
#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_tap.h"
#include "libvirt_test_support.h"

#include <QProcess>
#include <QTest>

using namespace arizuko::libvirt;

namespace {

QString listing(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    process.waitForFinished(10000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

struct Fixture
{
    std::shared_ptr<Connection> connection = test::connectOrDie();
    QString name = test::testTurnName();
    QString tap = turnTapName(name);
    std::unique_ptr<TurnNetwork> network;
    TurnFilterParameters parameters;

    Fixture()
    {
        if (!defineTurnFilter(*connection))
            qFatal("cannot define the turn filter");
        auto created =
            TurnNetwork::createInPool(connection, name, SubnetPool(Ipv4Range{0x0AD50000, 16}),
                                      routedRanges(), test::testOwner());
        if (!created)
            qFatal("%s", qPrintable(created.error().message));
        network = std::move(*created);
        parameters = {network->subnet().guestAddress(), network->subnet().hostAddress(), 40123,
                      40124};
    }
    ~Fixture()
    {
        (void)deleteTurnFilterBinding(*connection, tap);
        (void)deleteTurnTap(tap);
    }
    TurnFilterBindingSpec binding() const
    {
        return {name, QStringLiteral("6f1d2c3b-0000-4000-8000-000000000001"), tap,
                QStringLiteral("52:54:00:12:34:56"), parameters};
    }
};

} // namespace

class TestTurnFilterBinding : public QObject
{
    Q_OBJECT

private slots:
    void aBindingOnTheEnginesTapIsInForce()
    {
        Fixture turn;
        VERIFY_OK(createTurnTap(turn.tap, turn.name, test::testOwner()));
        const auto taps = turnTaps();
        QVERIFY(std::any_of(taps.begin(), taps.end(), [&turn](const TurnTap &tap) {
            return tap.name == turn.tap && tap.owner == test::testOwner();
        }));
        VERIFY_OK(createTurnFilterBinding(*turn.connection, turn.binding()));
        VERIFY_OK(flushTurnConntrack(turn.name, turn.parameters.guestAddress));
        VERIFY_OK(verifyTurnFilterRules(turn.tap, turn.parameters));
        // Another turn's ports are not this one's.
        TurnFilterParameters other = turn.parameters;
        other.proxyPort = 40999;
        QVERIFY(!verifyTurnFilterRules(turn.tap, other));

        VERIFY_OK(deleteTurnFilterBinding(*turn.connection, turn.tap));
        const arizuko::Result<void> gone = verifyTurnFilterRules(turn.tap, turn.parameters);
        QVERIFY(!gone);
        QCOMPARE(gone.error().code, QStringLiteral("libvirt.nwfilter-missing"));
        VERIFY_OK(deleteTurnTap(turn.tap));
        QVERIFY(!QFile::exists(QStringLiteral("/sys/class/net/") + turn.tap));
    }

    void aBindingMadeBeforeItsTapIsNotTrusted()
    {
        Fixture turn;
        // libvirt's trap: this "succeeds"...
        VERIFY_OK(createTurnFilterBinding(*turn.connection, turn.binding()));
        QVERIFY(turn.connection->filterBindingPorts()->contains(turn.tap));
        // ...with no rules, and none appear once the tap is there.
        VERIFY_OK(createTurnTap(turn.tap, turn.name, test::testOwner()));
        const arizuko::Result<void> verified = verifyTurnFilterRules(turn.tap, turn.parameters);
        QVERIFY2(!verified, "a binding made before its tap passed the check");
        QVERIFY2(verified.error().message.contains(QLatin1String("no jump for the tap")),
                 qPrintable(verified.error().message));
    }

    void everyMissingPieceIsNamed()
    {
        Fixture turn;
        VERIFY_OK(createTurnTap(turn.tap, turn.name, test::testOwner()));
        VERIFY_OK(createTurnFilterBinding(*turn.connection, turn.binding()));
        const QString ipv4 = listing(QStringLiteral("iptables"), {QStringLiteral("-S")});
        const QString ipv6 = listing(QStringLiteral("ip6tables"), {QStringLiteral("-S")});
        const QString bridge =
            listing(QStringLiteral("ebtables"),
                    {QStringLiteral("-t"), QStringLiteral("nat"), QStringLiteral("-L")});
        QCOMPARE(missingTurnFilterRules(turn.tap, turn.parameters, ipv4, ipv6, bridge),
                 QStringList());

        // Each table alone, taken away, is missed.
        QVERIFY(
            !missingTurnFilterRules(turn.tap, turn.parameters, QString(), ipv6, bridge).isEmpty());
        QVERIFY(
            !missingTurnFilterRules(turn.tap, turn.parameters, ipv4, QString(), bridge).isEmpty());
        QVERIFY(
            !missingTurnFilterRules(turn.tap, turn.parameters, ipv4, ipv6, QString()).isEmpty());
        // A final drop removed from one chain, or the IPv6 drop at layer 2.
        QString noDrop = ipv4;
        noDrop.replace(QStringLiteral("-A FO-%1 -j DROP").arg(turn.tap), QString());
        QCOMPARE(
            missingTurnFilterRules(turn.tap, turn.parameters, noDrop, ipv6, bridge),
            QStringList{QStringLiteral("iptables: FO-%1 does not end in a drop").arg(turn.tap)});
        const QString inChain = QStringLiteral("Bridge chain: libvirt-I-%1").arg(turn.tap);
        QString ipv6Passes = bridge;
        const qsizetype chainAt = ipv6Passes.indexOf(inChain);
        QVERIFY(chainAt >= 0);
        ipv6Passes.replace(ipv6Passes.indexOf(QLatin1String("-p IPv6 -j DROP"), chainAt), 15,
                           QStringLiteral("-p IPv6 -j ACCEPT"));
        QVERIFY(missingTurnFilterRules(turn.tap, turn.parameters, ipv4, ipv6, ipv6Passes)
                    .contains(
                        QStringLiteral("ebtables: libvirt-I-%1 does not drop IPv6").arg(turn.tap)));
    }
};

QTEST_GUILESS_MAIN(TestTurnFilterBinding)
#include "test_turn_filter_binding.moc"
