// Which resolved addresses --deny-private refuses: every class from docs/egress.md, both sides of
// each boundary.

#include "address_policy.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

struct AddressCase
{
    const char *ip;
    AddressClass expected;
};

AddressClass classify(const char *ip)
{
    const auto address = SocketAddress::fromIpLiteral(ip, 443);
    EXPECT_TRUE(address) << ip;
    return address ? classifyAddress(*address) : AddressClass::Reserved;
}

TEST(AddressPolicy, ClassifiesEveryBoundary)
{
    using enum AddressClass;
    const AddressCase cases[] = {
        // 0.0.0.0/8
        {"0.0.0.0", Unspecified},
        {"0.255.255.255", Unspecified},
        {"1.0.0.0", Public},
        // 10/8
        {"9.255.255.255", Public},
        {"10.0.0.0", Private},
        {"10.255.255.255", Private},
        {"11.0.0.0", Public},
        // 100.64/10
        {"100.63.255.255", Public},
        {"100.64.0.0", SharedCgnat},
        {"100.127.255.255", SharedCgnat},
        {"100.128.0.0", Public},
        // 127/8
        {"126.255.255.255", Public},
        {"127.0.0.1", Loopback},
        {"127.255.255.254", Loopback},
        {"128.0.0.0", Public},
        // 169.254/16
        {"169.253.255.255", Public},
        {"169.254.0.0", LinkLocal},
        {"169.254.169.254", LinkLocal},
        {"169.254.255.255", LinkLocal},
        {"169.255.0.0", Public},
        // 172.16/12
        {"172.15.255.255", Public},
        {"172.16.0.0", Private},
        {"172.31.255.255", Private},
        {"172.32.0.0", Public},
        // 192.168/16
        {"192.167.255.255", Public},
        {"192.168.0.0", Private},
        {"192.168.255.255", Private},
        {"192.169.0.0", Public},
        // 224/4, 240/4, broadcast
        {"223.255.255.255", Public},
        {"224.0.0.0", Multicast},
        {"239.255.255.255", Multicast},
        {"240.0.0.0", Reserved},
        {"255.255.255.254", Reserved},
        {"255.255.255.255", Broadcast},
        {"8.8.8.8", Public},
        {"93.184.216.34", Public},
        // IPv6 unspecified, loopback, IPv4-compatible ::/96
        {"::", Unspecified},
        {"::1", Loopback},
        {"::2", Ipv4Compatible},
        {"::7f00:1", Ipv4Compatible},
        {"::1:0:0:0", Public},
        // IPv4-mapped: judged by the IPv4 address carried
        {"::ffff:127.0.0.1", Loopback},
        {"::ffff:10.1.2.3", Private},
        {"::ffff:169.254.169.254", LinkLocal},
        {"::ffff:100.64.0.1", SharedCgnat},
        {"::ffff:8.8.8.8", Public},
        {"::fffe:8.8.8.8", Public},
        // fe80::/10
        {"fe7f:ffff::1", Public},
        {"fe80::1", LinkLocal},
        {"febf:ffff::1", LinkLocal},
        {"fec0::1", Public},
        // fc00::/7
        {"fbff:ffff::1", Public},
        {"fc00::1", UniqueLocal},
        {"fdff:ffff::1", UniqueLocal},
        {"fe00::1", Public},
        // ff00::/8
        {"feff:ffff::1", Public},
        {"ff00::", Multicast},
        {"ff02::1", Multicast},
        // the IPv4-embedding prefixes 64:ff9b::/96, 2002::/16, 2001::/32
        {"64:ff9b::7f00:1", Ipv4Embedding},
        {"64:ff9b::ffff:ffff", Ipv4Embedding},
        {"64:ff9b:0:0:0:1::", Public},
        {"64:ff9a::1", Public},
        {"2002::", Ipv4Embedding},
        {"2002:ffff:ffff::1", Ipv4Embedding},
        {"2001:0:ffff::1", Ipv4Embedding},
        {"2001:1::1", Public},
        {"2001:db8::1", Public},
        {"2003::1", Public},
        {"2606:4700::1111", Public},
    };
    for (const AddressCase &addressCase : cases) {
        EXPECT_EQ(addressClassName(classify(addressCase.ip)),
                  addressClassName(addressCase.expected))
            << addressCase.ip;
    }
}

TEST(AddressPolicy, RefusesEverythingButPublicAndOptionallyLoopback)
{
    using enum AddressClass;
    for (const AddressClass refused :
         {Unspecified, Private, SharedCgnat, LinkLocal, Multicast, Reserved, Broadcast, UniqueLocal,
          Ipv4Compatible, Ipv4Embedding}) {
        EXPECT_TRUE(isRefusedClass(refused, false)) << addressClassName(refused);
        EXPECT_TRUE(isRefusedClass(refused, true)) << addressClassName(refused);
    }
    EXPECT_FALSE(isRefusedClass(Public, false));
    EXPECT_FALSE(isRefusedClass(Public, true));
    EXPECT_TRUE(isRefusedClass(Loopback, false));
    EXPECT_FALSE(isRefusedClass(Loopback, true));
}

TEST(AddressPolicy, LoopbackInEveryFormFollowsAllowLoopback)
{
    for (const char *ip : {"127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"}) {
        EXPECT_TRUE(isRefusedClass(classify(ip), false)) << ip;
        EXPECT_FALSE(isRefusedClass(classify(ip), true)) << ip;
    }
    // 0.0.0.0 reaches the local host too, but is not loopback: refused either way.
    EXPECT_TRUE(isRefusedClass(classify("0.0.0.0"), true));
    EXPECT_TRUE(isRefusedClass(classify("::"), true));
}

TEST(SocketAddress, MappedAddressesPrintAndCompareAsIpv4)
{
    const auto mapped = SocketAddress::fromIpLiteral("::ffff:10.213.0.2", 1);
    const auto plain = SocketAddress::fromIpLiteral("10.213.0.2", 2);
    ASSERT_TRUE(mapped && plain);
    EXPECT_EQ(mapped->ipString(), "10.213.0.2");
    EXPECT_TRUE(mapped->sameIp(*plain));
    EXPECT_FALSE(plain->sameIp(*SocketAddress::fromIpLiteral("10.213.0.3", 2)));
    EXPECT_EQ(SocketAddress::fromIpLiteral("::1", 8080)->toString(), "[::1]:8080");
    EXPECT_FALSE(SocketAddress::fromIpLiteral("localhost", 1));
}

} // namespace
} // namespace arizuko::egress
