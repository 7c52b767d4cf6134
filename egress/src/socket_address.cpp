#include "socket_address.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>

namespace arizuko::egress {

std::optional<SocketAddress> SocketAddress::fromIpLiteral(std::string_view ip, uint16_t port)
{
    const std::string text(ip);
    SocketAddress result;
    auto *v4 = reinterpret_cast<sockaddr_in *>(&result.storage_);
    if (inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        result.length_ = sizeof(sockaddr_in);
        result.setPort(port);
        return result;
    }
    auto *v6 = reinterpret_cast<sockaddr_in6 *>(&result.storage_);
    if (inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        result.length_ = sizeof(sockaddr_in6);
        result.setPort(port);
        return result;
    }
    return std::nullopt;
}

SocketAddress SocketAddress::fromSockaddr(const sockaddr *address, socklen_t length)
{
    SocketAddress result;
    result.length_ = std::min<socklen_t>(length, sizeof(result.storage_));
    std::memcpy(&result.storage_, address, result.length_);
    return result;
}

uint16_t SocketAddress::port() const
{
    if (family() == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&storage_)->sin_port);
    if (family() == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&storage_)->sin6_port);
    return 0;
}

void SocketAddress::setPort(uint16_t port)
{
    if (family() == AF_INET)
        reinterpret_cast<sockaddr_in *>(&storage_)->sin_port = htons(port);
    else if (family() == AF_INET6)
        reinterpret_cast<sockaddr_in6 *>(&storage_)->sin6_port = htons(port);
}

const in6_addr *SocketAddress::ipv6() const
{
    if (family() != AF_INET6)
        return nullptr;
    return &reinterpret_cast<const sockaddr_in6 *>(&storage_)->sin6_addr;
}

std::optional<in_addr> SocketAddress::ipv4() const
{
    if (family() == AF_INET)
        return reinterpret_cast<const sockaddr_in *>(&storage_)->sin_addr;
    const in6_addr *v6 = ipv6();
    if (v6 == nullptr || !IN6_IS_ADDR_V4MAPPED(v6))
        return std::nullopt;
    in_addr carried{};
    std::memcpy(&carried, v6->s6_addr + 12, sizeof(carried));
    return carried;
}

std::string SocketAddress::ipString() const
{
    char text[INET6_ADDRSTRLEN] = {};
    if (const auto v4 = ipv4())
        inet_ntop(AF_INET, &*v4, text, sizeof(text));
    else if (const in6_addr *v6 = ipv6())
        inet_ntop(AF_INET6, v6, text, sizeof(text));
    return text;
}

std::string SocketAddress::toString() const
{
    const std::string ip = ipString();
    const bool bracketed = ip.find(':') != std::string::npos;
    return (bracketed ? "[" + ip + "]" : ip) + ":" + std::to_string(port());
}

bool SocketAddress::sameIp(const SocketAddress &other) const
{
    const auto mine = ipv4();
    const auto theirs = other.ipv4();
    if (mine || theirs)
        return mine && theirs && mine->s_addr == theirs->s_addr;
    const in6_addr *a = ipv6();
    const in6_addr *b = other.ipv6();
    return a != nullptr && b != nullptr && IN6_ARE_ADDR_EQUAL(a, b);
}

} // namespace arizuko::egress
