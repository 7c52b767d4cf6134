#include "ipv4_interface.h"

#include <arpa/inet.h>
#include <charconv>

namespace arizuko::guest {
namespace {

std::uint32_t parseAddress(std::string_view text, std::string_view what)
{
    const std::string copy(text);
    in_addr parsed{};
    if (inet_pton(AF_INET, copy.c_str(), &parsed) != 1)
        throw AddressError(std::string(what) + " \"" + copy + "\" is not an IPv4 address");
    return ntohl(parsed.s_addr);
}

} // namespace

std::uint32_t Ipv4Interface::netmask() const
{
    return prefixLength == 0 ? 0 : ~std::uint32_t{0} << (32 - prefixLength);
}

Ipv4Interface parseIpv4Interface(std::string_view addressWithPrefix, std::string_view gateway)
{
    const std::size_t slash = addressWithPrefix.find('/');
    if (slash == std::string_view::npos)
        throw AddressError("address \"" + std::string(addressWithPrefix) +
                           "\" needs a prefix length, e.g. 10.213.0.2/30");
    Ipv4Interface interface;
    interface.address = parseAddress(addressWithPrefix.substr(0, slash), "address");
    const std::string_view prefix = addressWithPrefix.substr(slash + 1);
    const auto parsed =
        std::from_chars(prefix.data(), prefix.data() + prefix.size(), interface.prefixLength);
    if (prefix.empty() || parsed.ec != std::errc() || parsed.ptr != prefix.data() + prefix.size() ||
        interface.prefixLength < 1 || interface.prefixLength > 30)
        throw AddressError("prefix length \"" + std::string(prefix) + "\" is not 1 to 30");
    interface.gateway = parseAddress(gateway, "gateway");

    const std::uint32_t mask = interface.netmask();
    const auto isHostOfSubnet = [&](std::uint32_t candidate) {
        const std::uint32_t hostPart = candidate & ~mask;
        return (candidate & mask) == (interface.address & mask) && hostPart != 0 &&
               hostPart != ~mask;
    };
    if (!isHostOfSubnet(interface.address))
        throw AddressError("address " + formatIpv4(interface.address) +
                           " is the network or broadcast address of its subnet");
    if (!isHostOfSubnet(interface.gateway) || interface.gateway == interface.address)
        throw AddressError("gateway " + formatIpv4(interface.gateway) +
                           " is not another host of the subnet " + std::string(addressWithPrefix));
    return interface;
}

std::string formatIpv4(std::uint32_t address)
{
    return std::to_string(address >> 24) + '.' + std::to_string((address >> 16) & 0xFF) + '.' +
           std::to_string((address >> 8) & 0xFF) + '.' + std::to_string(address & 0xFF);
}

} // namespace arizuko::guest
