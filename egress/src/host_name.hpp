#pragma once

// The one spelling of a host name or IP literal that the allow/deny lists and requests are compared
// in: lower case, no trailing dot, IPv6 literals canonical and without brackets.

#include <optional>
#include <string>
#include <string_view>

namespace arizuko::egress {

struct HostName
{
    std::string text;
    bool isIpLiteral = false;

    bool operator==(const HostName &) const = default;
};

// Accepts a DNS name (labels of letters, digits, '-' and '_'), an IPv4 dotted quad, or an IPv6
// address with or without brackets. Returns nothing for anything else.
std::optional<HostName> normalizeHost(std::string_view raw);

// A name whose last label is numeric but that is not a dotted quad ("127.1", "0x7f.1", "1.2.3")
// would be read as an address by the system resolver, bypassing the literal-only matching of IP
// addresses; requests naming such a host are refused.
bool looksNumericButIsNotIpv4(const HostName &host);

} // namespace arizuko::egress
