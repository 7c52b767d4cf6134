#pragma once

// An IPv4 or IPv6 socket address held by value, so the address the policy checked is exactly the
// address the proxy dials.

#include <cstdint>
#include <netinet/in.h>
#include <optional>
#include <string>
#include <string_view>
#include <sys/socket.h>

namespace arizuko::egress {

class SocketAddress
{
public:
    SocketAddress() = default;

    // `ip` is a dotted quad or an IPv6 address without brackets.
    static std::optional<SocketAddress> fromIpLiteral(std::string_view ip, uint16_t port);
    static SocketAddress fromSockaddr(const sockaddr *address, socklen_t length);

    const sockaddr *get() const { return reinterpret_cast<const sockaddr *>(&storage_); }
    socklen_t length() const { return length_; }
    int family() const { return storage_.ss_family; }
    uint16_t port() const;
    void setPort(uint16_t port);

    // The IPv4 address this carries, also when it is an IPv4-mapped IPv6 address.
    std::optional<in_addr> ipv4() const;
    const in6_addr *ipv6() const;

    // IPv4-mapped addresses print as IPv4: the log shows a peer the way it was configured.
    std::string ipString() const;
    std::string toString() const;
    bool sameIp(const SocketAddress &other) const;

private:
    sockaddr_storage storage_{};
    socklen_t length_ = 0;
};

} // namespace arizuko::egress
