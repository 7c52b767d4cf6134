#pragma once

// The /30 subnets turns run on: host .1, guest .2, carved from a pool
// (default 10.213.0.0/16) around every range the host already routes, so a
// turn network never shadows a real network.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace arizuko::libvirt {

struct Ipv4Range
{
    quint32 network = 0; // host byte order
    int prefixLength = 32;

    quint32 mask() const { return prefixLength == 0 ? 0 : ~quint32(0) << (32 - prefixLength); }
    quint32 last() const { return network | ~mask(); }
    bool overlaps(const Ipv4Range &other) const
    {
        return network <= other.last() && other.network <= last();
    }
    QString cidr() const;

    // "10.213.0.0/16" or "10.213.0.5/32"; the address must be the range's first.
    static Result<Ipv4Range> parse(const QString &cidr);
};

QString ipv4ToString(quint32 address);

struct TurnSubnet
{
    Ipv4Range range; // a /30

    QString hostAddress() const { return ipv4ToString(range.network + 1); }
    QString guestAddress() const { return ipv4ToString(range.network + 2); }
    static constexpr int prefixLength = 30;
    static QString netmask() { return QStringLiteral("255.255.255.252"); }
};

// The ranges in a /proc/net/route table, without default routes (which
// would cover everything and are not a network of their own).
QList<Ipv4Range> parseRouteTable(const QByteArray &table);

// The host's IPv4 routes, read from /proc/net/route.
QList<Ipv4Range> routedRanges();

class SubnetPool
{
public:
    explicit SubnetPool(Ipv4Range pool)
        : m_pool(pool)
    {}
    // A pool must hold at least one /30.
    static Result<SubnetPool> parse(const QString &cidr);

    static constexpr const char *defaultPool = "10.213.0.0/16";

    Ipv4Range range() const { return m_pool; }

    // The first /30 of the pool overlapping none of `taken`, or
    // "pool exhausted" naming the pool.
    Result<TurnSubnet> allocate(const QList<Ipv4Range> &taken) const;

private:
    Ipv4Range m_pool;
};

} // namespace arizuko::libvirt
