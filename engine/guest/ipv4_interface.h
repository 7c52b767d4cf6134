#pragma once

// The guest NIC's static IPv4 settings: an address with its prefix and the
// host's address as the default gateway.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace arizuko::guest {

class AddressError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct Ipv4Interface
{
    std::uint32_t address = 0; // host byte order
    int prefixLength = 0;
    std::uint32_t gateway = 0;

    std::uint32_t netmask() const;
    bool operator==(const Ipv4Interface &) const = default;
};

// From "10.213.0.2/30" and "10.213.0.1". The gateway must be a host of the
// same subnet and differ from the address.
Ipv4Interface parseIpv4Interface(std::string_view addressWithPrefix, std::string_view gateway);

std::string formatIpv4(std::uint32_t address);

} // namespace arizuko::guest
