#include "bench_socket.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <unistd.h>

namespace egress_bench {

namespace {
constexpr std::size_t maxHeadBytes = 16384;
constexpr int listenBacklog = 4096;
} // namespace

void failWithErrno(std::string_view what)
{
    const int error = errno;
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(what.size()), what.data(),
                 std::strerror(error));
    std::exit(1);
}

void fail(std::string_view what)
{
    std::fprintf(stderr, "%.*s\n", static_cast<int>(what.size()), what.data());
    std::exit(1);
}

std::optional<std::uint64_t> parseNumber(std::string_view text)
{
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

std::optional<Endpoint> parseEndpoint(std::string_view hostPort)
{
    const auto colon = hostPort.rfind(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::string host(hostPort.substr(0, colon));
    const auto port = parseNumber(hostPort.substr(colon + 1));
    if (!port || *port > 65535)
        return std::nullopt;

    Endpoint endpoint;
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        auto *v6 = reinterpret_cast<sockaddr_in6 *>(&endpoint.address);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<std::uint16_t>(*port));
        if (inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &v6->sin6_addr) != 1)
            return std::nullopt;
        endpoint.length = sizeof(sockaddr_in6);
        return endpoint;
    }
    auto *v4 = reinterpret_cast<sockaddr_in *>(&endpoint.address);
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<std::uint16_t>(*port));
    if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) != 1)
        return std::nullopt;
    endpoint.length = sizeof(sockaddr_in);
    return endpoint;
}

std::string formatEndpoint(const sockaddr_storage &address)
{
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET6) {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&address);
        inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
        return "[" + std::string(text) + "]:" + std::to_string(ntohs(v6->sin6_port));
    }
    const auto *v4 = reinterpret_cast<const sockaddr_in *>(&address);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    return std::string(text) + ":" + std::to_string(ntohs(v4->sin_port));
}

void raiseFileLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        failWithErrno("getrlimit");
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
        failWithErrno("setrlimit");
}

UniqueFd listenOn(const Endpoint &endpoint, bool nonblocking)
{
    const int flags = SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0);
    UniqueFd listener(::socket(endpoint.address.ss_family, flags, 0));
    if (!listener)
        failWithErrno("socket");
    const int on = 1;
    setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(listener.get(), reinterpret_cast<const sockaddr *>(&endpoint.address),
               endpoint.length) != 0)
        failWithErrno("bind");
    if (::listen(listener.get(), listenBacklog) != 0)
        failWithErrno("listen");
    return listener;
}

void announceListening(int listenFd)
{
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    if (getsockname(listenFd, reinterpret_cast<sockaddr *>(&bound), &length) != 0)
        failWithErrno("getsockname");
    std::fprintf(stderr, "{\"event\":\"listening\",\"addr\":\"%s\"}\n",
                 formatEndpoint(bound).c_str());
    std::fflush(stderr);
}

UniqueFd connectTo(const Endpoint &endpoint)
{
    UniqueFd socket(::socket(endpoint.address.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!socket)
        failWithErrno("socket");
    if (::connect(socket.get(), reinterpret_cast<const sockaddr *>(&endpoint.address),
                  endpoint.length) != 0)
        return {};
    setNoDelay(socket.get());
    return socket;
}

void setNoDelay(int fd)
{
    const int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

Pipe makePipe(std::size_t wantedCapacity, bool nonblocking)
{
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)) != 0)
        failWithErrno("pipe2");
    Pipe pipe{UniqueFd(ends[0]), UniqueFd(ends[1]), 0};
    // Best effort: fs.pipe-max-size may forbid the size; then the pipe keeps
    // the size it has, and capacity says which.
    if (wantedCapacity > 0)
        fcntl(pipe.writeEnd.get(), F_SETPIPE_SZ, static_cast<int>(wantedCapacity));
    const int capacity = fcntl(pipe.writeEnd.get(), F_GETPIPE_SZ);
    if (capacity < 0)
        failWithErrno("F_GETPIPE_SZ");
    pipe.capacity = static_cast<std::size_t>(capacity);
    return pipe;
}

std::optional<std::size_t> headLength(std::string_view buffer)
{
    const auto end = buffer.find("\r\n\r\n");
    if (end == std::string_view::npos)
        return std::nullopt;
    return end + 4;
}

std::optional<std::size_t> readHead(int fd, std::string &buffer)
{
    char chunk[4096];
    for (;;) {
        if (const auto length = headLength(buffer))
            return length;
        if (buffer.size() > maxHeadBytes)
            return std::nullopt;
        const ssize_t received = ::recv(fd, chunk, sizeof chunk, 0);
        if (received < 0 && errno == EINTR)
            continue;
        if (received <= 0)
            return std::nullopt;
        buffer.append(chunk, static_cast<std::size_t>(received));
    }
}

bool sendAll(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
}

int statusCode(std::string_view head)
{
    // "HTTP/1.1 200 ..." — the code is the second word.
    const auto space = head.find(' ');
    if (!head.starts_with("HTTP/") || space == std::string_view::npos || head.size() < space + 4)
        return 0;
    const auto code = parseNumber(head.substr(space + 1, 3));
    return code ? static_cast<int>(*code) : 0;
}

std::optional<std::uint64_t> contentLength(std::string_view head)
{
    std::string lower(head);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string_view name = "\r\ncontent-length:";
    const auto at = lower.find(name);
    if (at == std::string::npos)
        return std::nullopt;
    auto value = std::string_view(lower).substr(at + name.size());
    value = value.substr(0, value.find("\r\n"));
    while (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ')
        value.remove_suffix(1);
    return parseNumber(value);
}

} // namespace egress_bench
