#pragma once

// Static IPv4 on the guest's one NIC, by ioctl: no DHCP, no resolver, and
// IPv6 switched off (the host drops it anyway).

#include "ipv4_interface.h"

#include <string>

namespace arizuko::guest::network {

void bringUpLoopback();

// Configures the first non-loopback interface and a default route through
// the gateway; returns the interface's name.
std::string configure(const Ipv4Interface &settings);

void disableIpv6();

} // namespace arizuko::guest::network
