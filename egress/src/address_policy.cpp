#include "address_policy.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cstdint>

namespace arizuko::egress {
namespace {

bool inIpv4Block(uint32_t address, uint32_t block, int prefixLength)
{
    const uint32_t mask = prefixLength == 0 ? 0 : ~uint32_t{0} << (32 - prefixLength);
    return (address & mask) == block;
}

AddressClass classifyIpv4(in_addr carried)
{
    const uint32_t address = ntohl(carried.s_addr);
    if (address == 0xFFFFFFFFu)
        return AddressClass::Broadcast;
    struct Block
    {
        uint32_t base;
        int prefixLength;
        AddressClass addressClass;
    };
    static constexpr std::array<Block, 9> kBlocks{{
        {0x00000000u, 8, AddressClass::Unspecified},  // 0.0.0.0/8
        {0x0A000000u, 8, AddressClass::Private},      // 10/8
        {0x64400000u, 10, AddressClass::SharedCgnat}, // 100.64/10
        {0x7F000000u, 8, AddressClass::Loopback},     // 127/8
        {0xA9FE0000u, 16, AddressClass::LinkLocal},   // 169.254/16
        {0xAC100000u, 12, AddressClass::Private},     // 172.16/12
        {0xC0A80000u, 16, AddressClass::Private},     // 192.168/16
        {0xE0000000u, 4, AddressClass::Multicast},    // 224/4
        {0xF0000000u, 4, AddressClass::Reserved},     // 240/4
    }};
    for (const Block &block : kBlocks) {
        if (inIpv4Block(address, block.base, block.prefixLength))
            return block.addressClass;
    }
    return AddressClass::Public;
}

bool hasPrefix(const in6_addr &address, std::initializer_list<uint8_t> prefixBytes, int bits)
{
    const auto *bytes = address.s6_addr;
    const uint8_t *prefix = prefixBytes.begin();
    int fullBytes = bits / 8;
    if (!std::equal(bytes, bytes + fullBytes, prefix))
        return false;
    const int restBits = bits % 8;
    if (restBits == 0)
        return true;
    const auto mask = static_cast<uint8_t>(0xFF << (8 - restBits));
    return (bytes[fullBytes] & mask) == (prefix[fullBytes] & mask);
}

AddressClass classifyIpv6(const in6_addr &address)
{
    if (IN6_IS_ADDR_UNSPECIFIED(&address))
        return AddressClass::Unspecified;
    if (IN6_IS_ADDR_LOOPBACK(&address))
        return AddressClass::Loopback;
    if (hasPrefix(address, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 96))
        return AddressClass::Ipv4Compatible;
    if (hasPrefix(address, {0xFE, 0x80}, 10))
        return AddressClass::LinkLocal;
    if (hasPrefix(address, {0xFC}, 7))
        return AddressClass::UniqueLocal;
    if (hasPrefix(address, {0xFF}, 8))
        return AddressClass::Multicast;
    if (hasPrefix(address, {0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0}, 96) ||
        hasPrefix(address, {0x20, 0x02}, 16) || hasPrefix(address, {0x20, 0x01, 0x00, 0x00}, 32))
        return AddressClass::Ipv4Embedding;
    return AddressClass::Public;
}

} // namespace

AddressClass classifyAddress(const SocketAddress &address)
{
    if (const auto v4 = address.ipv4())
        return classifyIpv4(*v4);
    if (const in6_addr *v6 = address.ipv6())
        return classifyIpv6(*v6);
    return AddressClass::Reserved;
}

std::string_view addressClassName(AddressClass addressClass)
{
    switch (addressClass) {
    case AddressClass::Public:
        return "public";
    case AddressClass::Unspecified:
        return "unspecified";
    case AddressClass::Loopback:
        return "loopback";
    case AddressClass::Private:
        return "private";
    case AddressClass::SharedCgnat:
        return "shared (CGNAT)";
    case AddressClass::LinkLocal:
        return "link-local";
    case AddressClass::Multicast:
        return "multicast";
    case AddressClass::Reserved:
        return "reserved";
    case AddressClass::Broadcast:
        return "broadcast";
    case AddressClass::UniqueLocal:
        return "unique-local";
    case AddressClass::Ipv4Compatible:
        return "IPv4-compatible";
    case AddressClass::Ipv4Embedding:
        return "IPv4-embedding";
    }
    return "unknown";
}

bool isRefusedClass(AddressClass addressClass, bool allowLoopback)
{
    if (addressClass == AddressClass::Public)
        return false;
    return !(addressClass == AddressClass::Loopback && allowLoopback);
}

} // namespace arizuko::egress
