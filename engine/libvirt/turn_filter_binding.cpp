#include "libvirt/turn_filter_binding.h"

#include "libvirt/handles.h"
#include "libvirt/libvirt_error.h"
#include "libvirt/net_admin.h"

#include <QHash>
#include <QThread>
#include <QXmlStreamWriter>
#include <libvirt/virterror.h>

namespace arizuko::libvirt {
namespace {

// How often a failed read of the filter tables is tried (see below).
constexpr int listingAttempts = 4;
constexpr unsigned long listingRetryPauseMs = 250;

// `iptables -S` as chain → its rules in order ("-A CHAIN " dropped).
QHash<QString, QStringList> iptablesChains(const QString &listing)
{
    QHash<QString, QStringList> chains;
    for (const QString &line : listing.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1String("-A ")))
            continue;
        const QString chain = line.section(QLatin1Char(' '), 1, 1);
        chains[chain] << line.section(QLatin1Char(' '), 2);
    }
    return chains;
}

// `ebtables -t nat -L` as chain → its rules in order.
QHash<QString, QStringList> ebtablesChains(const QString &listing)
{
    QHash<QString, QStringList> chains;
    QString chain;
    for (const QString &line : listing.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Bridge chain: ")))
            chain = line.mid(14).section(QLatin1Char(','), 0, 0);
        else if (!chain.isEmpty() && line.startsWith(QLatin1Char('-')))
            chains[chain] << line.trimmed();
    }
    return chains;
}

bool hasRule(const QStringList &rules, const QString &rule)
{
    return rules.contains(rule);
}

bool hasRuleContaining(const QStringList &rules, const QString &part)
{
    return std::any_of(rules.begin(), rules.end(),
                       [&part](const QString &rule) { return rule.contains(part); });
}

bool endsInDrop(const QStringList &rules)
{
    return !rules.isEmpty() && rules.last() == QLatin1String("-j DROP");
}

// The jumps from libvirt's shared chains into the tap's own ones, and each
// of those ending in a drop: the same for IPv4 and IPv6.
void checkJumps(const QHash<QString, QStringList> &chains, const QString &tap,
                const QString &family, QStringList &missing)
{
    const struct
    {
        const char *from;
        QString rule;
    } jumps[] = {
        {"libvirt-host-in",
         QStringLiteral("-m physdev --physdev-in %1 -g HI-%1").arg(tap)},
        {"libvirt-in", QStringLiteral("-m physdev --physdev-in %1 -g FI-%1").arg(tap)},
        {"libvirt-out",
         QStringLiteral("-m physdev --physdev-out %1 --physdev-is-bridged -g FO-%1").arg(tap)},
    };
    for (const auto &jump : jumps) {
        if (!hasRule(chains.value(QLatin1String(jump.from)), jump.rule))
            missing << QStringLiteral("%1: %2 has no jump for the tap")
                           .arg(family, QLatin1String(jump.from));
    }
    for (const char *prefix : {"HI-", "FI-", "FO-"}) {
        const QString chain = QLatin1String(prefix) + tap;
        if (!endsInDrop(chains.value(chain)))
            missing << QStringLiteral("%1: %2 does not end in a drop").arg(family, chain);
    }
}

} // namespace

QString turnFilterBindingXml(const TurnFilterBindingSpec &spec)
{
    QString xml;
    QXmlStreamWriter writer(&xml);
    writer.setAutoFormatting(true);
    writer.writeStartElement(QStringLiteral("filterbinding"));
    writer.writeStartElement(QStringLiteral("owner"));
    writer.writeTextElement(QStringLiteral("name"), spec.ownerName);
    writer.writeTextElement(QStringLiteral("uuid"), spec.ownerUuid);
    writer.writeEndElement();
    writer.writeEmptyElement(QStringLiteral("portdev"));
    writer.writeAttribute(QStringLiteral("name"), spec.tap);
    writer.writeEmptyElement(QStringLiteral("mac"));
    writer.writeAttribute(QStringLiteral("address"), spec.macAddress);
    writeTurnFilterReference(writer, spec.filter);
    writer.writeEndElement();
    return xml;
}

Result<void> createTurnFilterBinding(Connection &connection, const TurnFilterBindingSpec &spec)
{
    const QByteArray xml = turnFilterBindingXml(spec).toUtf8();
    const FilterBindingHandle binding(
        virNWFilterBindingCreateXML(connection.get(), xml.constData(), 0));
    if (!binding)
        return lastLibvirtError(QStringLiteral("libvirt.nwfilter"),
                                QStringLiteral("binding the filter %1 to %2")
                                    .arg(QLatin1String(turnFilterName), spec.tap));
    return {};
}

Result<void> deleteTurnFilterBinding(Connection &connection, const QString &tap)
{
    const QByteArray port = tap.toUtf8();
    const FilterBindingHandle binding(
        virNWFilterBindingLookupByPortDev(connection.get(), port.constData()));
    if (!binding && lastLibvirtErrorNumber() == VIR_ERR_NO_NWFILTER_BINDING)
        return {};
    if (!binding || virNWFilterBindingDelete(binding.get()) < 0) {
        Error error =
            lastLibvirtError(QStringLiteral("libvirt.nwfilter"),
                             QStringLiteral("deleting the filter binding of %1").arg(tap));
        // Gone meanwhile (libvirt removes the bindings it made with their VM).
        const FilterBindingHandle again(
            virNWFilterBindingLookupByPortDev(connection.get(), port.constData()));
        if (!again && lastLibvirtErrorNumber() == VIR_ERR_NO_NWFILTER_BINDING)
            return {};
        return error;
    }
    return {};
}

QStringList missingTurnFilterRules(const QString &tap, const TurnFilterParameters &parameters,
                                   const QString &iptables, const QString &ip6tables,
                                   const QString &ebtables)
{
    QStringList missing;
    const QHash<QString, QStringList> ipv4 = iptablesChains(iptables);
    checkJumps(ipv4, tap, QStringLiteral("iptables"), missing);
    for (const quint16 port : {parameters.proxyPort, parameters.gatewayPort}) {
        const QString allowed = QStringLiteral("-s %1/32 -d %2/32 -p tcp -m tcp --dport %3 ")
                                    .arg(parameters.guestAddress, parameters.hostAddress)
                                    .arg(port);
        for (const char *prefix : {"HI-", "FI-"}) {
            if (!hasRuleContaining(ipv4.value(QLatin1String(prefix) + tap), allowed))
                missing << QStringLiteral("iptables: %1%2 does not allow the guest to port %3")
                               .arg(QLatin1String(prefix), tap)
                               .arg(port);
        }
    }
    checkJumps(iptablesChains(ip6tables), tap, QStringLiteral("ip6tables"), missing);

    const QHash<QString, QStringList> bridge = ebtablesChains(ebtables);
    const QString in = QStringLiteral("libvirt-I-") + tap;
    const QString out = QStringLiteral("libvirt-O-") + tap;
    if (!hasRule(bridge.value(QStringLiteral("PREROUTING")),
                 QStringLiteral("-i %1 -j %2").arg(tap, in)))
        missing << QStringLiteral("ebtables: PREROUTING has no jump for the tap");
    if (!hasRule(bridge.value(QStringLiteral("POSTROUTING")),
                 QStringLiteral("-o %1 -j %2").arg(tap, out)))
        missing << QStringLiteral("ebtables: POSTROUTING has no jump for the tap");
    for (const QString &chain : {in, out}) {
        if (!hasRule(bridge.value(chain), QStringLiteral("-p IPv6 -j DROP")))
            missing << QStringLiteral("ebtables: %1 does not drop IPv6").arg(chain);
    }
    if (!endsInDrop(bridge.value(in)) ||
        !hasRule(bridge.value(in), QStringLiteral("-j I-%1-mac").arg(tap)))
        missing << QStringLiteral("ebtables: %1 does not pin the guest's MAC and end in a drop")
                       .arg(in);
    const QStringList sourceAddress = bridge.value(QStringLiteral("I-%1-ipv4-ip").arg(tap));
    if (!hasRuleContaining(sourceAddress,
                           QStringLiteral("--ip-src %1 -j RETURN").arg(parameters.guestAddress)) ||
        !endsInDrop(sourceAddress))
        missing << QStringLiteral("ebtables: the guest's IPv4 source address is not pinned");
    return missing;
}

Result<void> verifyTurnFilterRules(const QString &tap, const TurnFilterParameters &parameters)
{
    // A listing that races another change of the tables (libvirt binding or
    // unbinding another turn's filter) can fail in iptables-nft and
    // ebtables-nft ("RULE_DELETE failed (No such file or directory)"), so a
    // failed read is read again a few times; the rules themselves are judged
    // only on a complete read, and never retried into a pass. Runs on a worker.
    const auto listing = [](const QString &table, const QStringList &arguments) {
        NetAdminOutput output;
        for (int attempt = 1; attempt <= listingAttempts; ++attempt) {
            if (attempt > 1)
                QThread::msleep(listingRetryPauseMs);
            output = runNetAdminStep(table, arguments, {QStringLiteral("filter-rules"), table});
            if (output.ran && output.exitCode == 0)
                break;
        }
        return output;
    };
    const NetAdminOutput ipv4 = listing(QStringLiteral("iptables"), {QStringLiteral("-S")});
    const NetAdminOutput ipv6 = listing(QStringLiteral("ip6tables"), {QStringLiteral("-S")});
    const NetAdminOutput bridge =
        listing(QStringLiteral("ebtables"),
                {QStringLiteral("-t"), QStringLiteral("nat"), QStringLiteral("-L")});
    for (const NetAdminOutput *listing : {&ipv4, &ipv6, &bridge}) {
        if (!listing->ran || listing->exitCode != 0)
            return makeError(QStringLiteral("libvirt.nwfilter-missing"),
                             QStringLiteral("cannot read the filter tables to check the turn's "
                                            "filter on %1: %2")
                                 .arg(tap, listing->err));
    }
    const QStringList missing =
        missingTurnFilterRules(tap, parameters, ipv4.out, ipv6.out, bridge.out);
    if (!missing.isEmpty())
        return makeError(
            QStringLiteral("libvirt.nwfilter-missing"),
            QStringLiteral("the filter %1 is not in force on %2, so the guest gets "
                           "no turn: %3")
                .arg(QLatin1String(turnFilterName), tap, missing.join(QStringLiteral("; "))));
    return {};
}

Result<void> flushTurnConntrack(const QString &bridge, const QString &guestAddress)
{
    // The helper finds the guest's address on the bridge itself.
    if (!engineHasNetAdmin()) {
        const NetAdminOutput flushed =
            runNetAdminStep({}, {}, {QStringLiteral("conntrack-flush"), bridge});
        if (!flushed.ok())
            return makeError(QStringLiteral("libvirt.conntrack"),
                             QStringLiteral("cannot forget the tracked connections of %1: %2")
                                 .arg(guestAddress, flushed.err));
        return {};
    }
    // conntrack exits 1 when there was nothing to delete.
    for (const char *direction : {"--orig-src", "--orig-dst"}) {
        const NetAdminOutput flushed =
            runNetAdminStep(QStringLiteral("conntrack"),
                            {QStringLiteral("-D"), QLatin1String(direction), guestAddress}, {});
        if (!flushed.ran ||
            (flushed.exitCode != 0 && !flushed.err.contains(QLatin1String("0 flow entries"))))
            return makeError(QStringLiteral("libvirt.conntrack"),
                             QStringLiteral("cannot forget the tracked connections of %1 (install "
                                            "the conntrack package): %2")
                                 .arg(guestAddress, flushed.err));
    }
    return {};
}

} // namespace arizuko::libvirt
