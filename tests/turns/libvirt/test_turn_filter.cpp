// The arizuko-turn nwfilter against the real libvirtd: defined and updated
// in place, and bound to a turn NIC with that turn's parameters, which the
// kernel's filter tables then carry until the VM goes.

#include "libvirt/subnet_pool.h"
#include "libvirt/turn_filter.h"
#include "libvirt/turn_network.h"
#include "libvirt/turn_owner.h"
#include "libvirt_test_support.h"

#include <QProcess>
#include <algorithm>
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

// The rules of one iptables chain (`iptables -S CHAIN`); empty when the
// chain does not exist.
QString iptablesChain(const QString &chain)
{
    return run(QStringLiteral("iptables"), {QStringLiteral("-S"), chain});
}

// The ebtables nat chains libvirt generated for one tap (libvirt-I-<tap>,
// libvirt-O-<tap> and their sub-chains I-<tap>-..., O-<tap>-...), as
// "chain: rule" lines, so another turn's chains cannot satisfy a check.
QStringList ebtablesRulesOf(const QString &tap)
{
    const QString listing =
        run(QStringLiteral("ebtables"),
            {QStringLiteral("-t"), QStringLiteral("nat"), QStringLiteral("-L")});
    QStringList rules;
    QString chain;
    for (const QString &line : listing.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Bridge chain: "))) {
            chain = line.mid(14).section(QLatin1Char(','), 0, 0);
            continue;
        }
        const bool ours = chain == QLatin1String("libvirt-I-") + tap ||
                          chain == QLatin1String("libvirt-O-") + tap ||
                          chain.startsWith(QLatin1String("I-") + tap + QLatin1Char('-')) ||
                          chain.startsWith(QLatin1String("O-") + tap + QLatin1Char('-'));
        if (ours && line.startsWith(QLatin1Char('-')))
            rules << chain + QLatin1String(": ") + line.trimmed();
    }
    return rules;
}

bool anyRule(const QStringList &rules, const QString &chainPrefix, const QStringList &parts)
{
    for (const QString &rule : rules) {
        if (!rule.startsWith(chainPrefix))
            continue;
        if (std::all_of(parts.begin(), parts.end(),
                        [&](const QString &part) { return rule.contains(part); }))
            return true;
    }
    return false;
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
        auto network =
            TurnNetwork::createInPool(connection, name, SubnetPool(Ipv4Range{0x0AD50000, 16}),
                                      routedRanges(), test::testOwner());
        VERIFY_OK(network);

        const QString tap = name + QStringLiteral("-g");
        const TurnFilterParameters parameters{(*network)->subnet().guestAddress(),
                                              (*network)->subnet().hostAddress(), 40123, 40124};
        const QByteArray xml = nicOnlyDomainXml(name, name, tap, parameters).toUtf8();
        const DomainHandle domain(
            virDomainCreateXML(connection->get(), xml.constData(), VIR_DOMAIN_START_AUTODESTROY));
        QVERIFY2(domain, virGetLastErrorMessage());

        QVERIFY(connection->filterBindingPorts()->contains(tap));
        const QString guest = (*network)->subnet().guestAddress();
        const QString host = (*network)->subnet().hostAddress();

        // Layer 3, in this tap's own chains (HI-<tap>: guest to host,
        // FI-<tap>: guest through the host): the two allowed flows and a
        // final drop; nothing else accepted.
        const QString hostIn = iptablesChain(QStringLiteral("HI-") + tap);
        const QString forwardIn = iptablesChain(QStringLiteral("FI-") + tap);
        const QString guestToProxy =
            QStringLiteral("-s %1/32 -d %2/32 -p tcp -m tcp --dport 40123").arg(guest, host);
        const QString guestToGateway =
            QStringLiteral("-s %1/32 -d %2/32 -p tcp -m tcp --dport 40124").arg(guest, host);
        for (const QString &chain : {hostIn, forwardIn}) {
            QVERIFY2(chain.contains(guestToProxy), qPrintable(chain));
            QVERIFY2(chain.contains(guestToGateway), qPrintable(chain));
            QVERIFY2(chain.trimmed().endsWith(QLatin1String("-j DROP")), qPrintable(chain));
            const auto accepts =
                chain.count(QLatin1String("-j ACCEPT")) + chain.count(QLatin1String("-j RETURN"));
            QVERIFY2(accepts == 2,
                     qPrintable(QStringLiteral("%1 accepting rules:\n%2").arg(accepts).arg(chain)));
        }
        const QString toGuest = iptablesChain(QStringLiteral("FO-") + tap);
        QVERIFY2(toGuest.trimmed().endsWith(QLatin1String("-j DROP")), qPrintable(toGuest));

        // Layer 2, in this tap's own ebtables chains: IPv6 dropped, the
        // guest's MAC and IPv4 source pinned (libvirt's no-*-spoofing).
        const QStringList bridgeRules = ebtablesRulesOf(tap);
        const QString dump = bridgeRules.join(QLatin1Char('\n'));
        QVERIFY2(anyRule(bridgeRules, QLatin1String("libvirt-I-") + tap,
                         {QStringLiteral("-p IPv6 -j DROP")}),
                 qPrintable(dump));
        QVERIFY2(anyRule(bridgeRules, QLatin1String("I-") + tap + QLatin1String("-mac"),
                         {QStringLiteral("-s "), QStringLiteral("-j RETURN")}) &&
                     anyRule(bridgeRules, QLatin1String("I-") + tap + QLatin1String("-mac"),
                             {QStringLiteral("-j DROP")}),
                 qPrintable(dump));
        QVERIFY2(anyRule(bridgeRules, QLatin1String("I-") + tap + QLatin1String("-ipv4-ip"),
                         {QStringLiteral("--ip-src %1").arg(guest), QStringLiteral("-j RETURN")}) &&
                     anyRule(bridgeRules, QLatin1String("I-") + tap + QLatin1String("-ipv4-ip"),
                             {QStringLiteral("-j DROP")}),
                 qPrintable(dump));

        QVERIFY(virDomainDestroy(domain.get()) == 0);
        QVERIFY(!connection->filterBindingPorts()->contains(tap));
        QVERIFY(!run(QStringLiteral("iptables"), {QStringLiteral("-S")}).contains(guestToProxy));
        QVERIFY(iptablesChain(QStringLiteral("HI-") + tap).isEmpty());
        QVERIFY(ebtablesRulesOf(tap).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTurnFilter)
#include "test_turn_filter.moc"
