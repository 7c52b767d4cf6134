#include "libvirt/subnet_pool.h"

#include <QFile>
#include <QHostAddress>
#include <QtAlgorithms>
#include <QtEndian>

namespace arizuko::libvirt {

QString ipv4ToString(quint32 address)
{
    return QHostAddress(address).toString();
}

QString Ipv4Range::cidr() const
{
    return QStringLiteral("%1/%2").arg(ipv4ToString(network)).arg(prefixLength);
}

Result<Ipv4Range> Ipv4Range::parse(const QString &cidr)
{
    const auto invalid = [&cidr](const QString &why) {
        return makeError(QStringLiteral("turns.bad-pool"),
                         QStringLiteral("subnet pool '%1' is not valid: %2").arg(cidr, why));
    };
    const QStringList parts = cidr.split(QLatin1Char('/'));
    if (parts.size() != 2)
        return invalid(QStringLiteral("expected ADDRESS/PREFIX, like 10.213.0.0/16"));
    QHostAddress address;
    if (!address.setAddress(parts[0]) || address.protocol() != QAbstractSocket::IPv4Protocol)
        return invalid(QStringLiteral("'%1' is not an IPv4 address").arg(parts[0]));
    bool numeric = false;
    const int prefix = parts[1].toInt(&numeric);
    if (!numeric || prefix < 1 || prefix > 32)
        return invalid(QStringLiteral("the prefix must be 1..32"));
    Ipv4Range range{address.toIPv4Address(), prefix};
    if ((range.network & range.mask()) != range.network)
        return invalid(
            QStringLiteral("%1 is not the first address of a /%2").arg(parts[0]).arg(prefix));
    return range;
}

QList<Ipv4Range> parseRouteTable(const QByteArray &table)
{
    // Columns: Iface Destination Gateway Flags RefCnt Use Metric Mask ...;
    // addresses are hex in network byte order printed as a little-endian word.
    QList<Ipv4Range> ranges;
    const QList<QByteArray> lines = table.split('\n');
    for (qsizetype index = 1; index < lines.size(); ++index) {
        const QList<QByteArray> columns = lines[index].simplified().split(' ');
        if (columns.size() < 8)
            continue;
        bool destinationOk = false;
        bool maskOk = false;
        const quint32 destination = qFromBigEndian(columns[1].toUInt(&destinationOk, 16));
        const quint32 mask = qFromBigEndian(columns[7].toUInt(&maskOk, 16));
        if (!destinationOk || !maskOk || mask == 0)
            continue;
        const int prefix = qPopulationCount(mask);
        ranges << Ipv4Range{destination & mask, prefix};
    }
    return ranges;
}

QList<Ipv4Range> routedRanges()
{
    QFile table(QStringLiteral("/proc/net/route"));
    if (!table.open(QIODevice::ReadOnly))
        return {};
    return parseRouteTable(table.readAll());
}

Result<SubnetPool> SubnetPool::parse(const QString &cidr)
{
    const auto range = Ipv4Range::parse(cidr);
    if (!range)
        return range.error();
    if (range->prefixLength > TurnSubnet::prefixLength)
        return makeError(QStringLiteral("turns.bad-pool"),
                         QStringLiteral("subnet pool '%1' is smaller than one /30").arg(cidr));
    return SubnetPool(*range);
}

Result<TurnSubnet> SubnetPool::allocate(const QList<Ipv4Range> &taken) const
{
    const quint64 end = quint64(m_pool.last()) + 1;
    for (quint64 network = m_pool.network; network < end; network += 4) {
        const Ipv4Range candidate{quint32(network), TurnSubnet::prefixLength};
        bool free = true;
        for (const Ipv4Range &range : taken) {
            if (candidate.overlaps(range)) {
                free = false;
                // Continue at the first /30 after the taken range: a routed
                // /16 would otherwise cost 16,384 checks with the same answer.
                const quint64 nextAligned = (quint64(range.last()) + 1 + 3) & ~quint64(3);
                network = nextAligned - 4;
                break;
            }
        }
        if (free)
            return TurnSubnet{candidate};
    }
    return makeError(
        QStringLiteral("turns.pool-exhausted"),
        QStringLiteral("the turn subnet pool %1 is exhausted: every /30 in it is routed "
                       "on this host or used by a running turn; wait for a turn to end "
                       "or configure a larger pool")
            .arg(m_pool.cidr()));
}

} // namespace arizuko::libvirt
