#pragma once

// Which resolved addresses `--deny-private` refuses (docs/egress.md, "Addresses"): everything that
// is not a public unicast address, judged on the address the proxy is about to dial.

#include "socket_address.hpp"

#include <string_view>

namespace arizuko::egress {

enum class AddressClass
{
    Public,
    Unspecified,
    Loopback,
    Private,
    SharedCgnat,
    LinkLocal,
    Multicast,
    Reserved,
    Broadcast,
    UniqueLocal,
    Ipv4Compatible,
    Ipv4Embedding,
};

AddressClass classifyAddress(const SocketAddress &address);
std::string_view addressClassName(AddressClass addressClass);

// Whether `--deny-private` refuses an address of this class.
bool isRefusedClass(AddressClass addressClass, bool allowLoopback);

} // namespace arizuko::egress
