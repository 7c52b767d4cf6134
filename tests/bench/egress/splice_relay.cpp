// egress-bench-relay: the smallest honest CONNECT proxy — one epoll thread,
// the host checked against an exact allowlist, a non-blocking connect, `200`,
// then splice(2) both ways through one pipe per direction. It is the
// benchmark's yardstick for what any one-hop proxy can reach on this machine.
// Hosts must be IP literals: the benchmark's upstream is one, and a resolver
// would only add a cost that the proxies under test avoid for literals too.

#include "bench_socket.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <set>
#include <sys/epoll.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

using namespace egress_bench;

namespace {

constexpr std::size_t maxHeadBytes = 16384;
constexpr std::uint32_t splicingEvents = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;

struct Direction
{
    int from = -1;
    int to = -1;
    Pipe pipe;
    std::size_t queued = 0;
    bool sourceEnded = false;
    bool sinkShut = false;
};

struct Tunnel
{
    enum class Phase
    {
        ReadingHead,
        Connecting,
        Splicing
    };

    Phase phase = Phase::ReadingHead;
    bool closed = false;
    UniqueFd client;
    UniqueFd upstream;
    std::string head;
    Direction toUpstream;
    Direction toClient;
};

enum class Flow
{
    Open,
    Finished,
    Failed
};

// Moves bytes from one socket to the other until both sides would block.
// Every stop waits on an edge that epoll will report: the source running dry
// (EPOLLIN), the sink filling up (EPOLLOUT), or the end of the stream.
Flow pump(Direction &direction)
{
    for (;;) {
        bool progressed = false;
        if (!direction.sourceEnded && direction.queued < direction.pipe.capacity) {
            const ssize_t in = splice(direction.from, nullptr, direction.pipe.writeEnd.get(),
                                      nullptr, direction.pipe.capacity - direction.queued,
                                      SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (in > 0)
                direction.queued += static_cast<std::size_t>(in);
            else if (in == 0)
                direction.sourceEnded = true;
            else if (errno != EAGAIN && errno != EINTR)
                return Flow::Failed;
            progressed = in >= 0;
        }
        if (direction.queued > 0) {
            const ssize_t out = splice(direction.pipe.readEnd.get(), nullptr, direction.to, nullptr,
                                       direction.queued, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (out > 0) {
                direction.queued -= static_cast<std::size_t>(out);
                progressed = true;
            } else if (out == 0 || (errno != EAGAIN && errno != EINTR)) {
                return Flow::Failed;
            }
        }
        if (direction.sourceEnded && direction.queued == 0) {
            if (!direction.sinkShut)
                shutdown(direction.to, SHUT_WR);
            direction.sinkShut = true;
            return Flow::Finished;
        }
        if (!progressed)
            return Flow::Open;
    }
}

class Relay
{
public:
    Relay(UniqueFd listener, std::set<std::string> allowedHosts, std::size_t pipeSize);
    [[noreturn]] void run();

private:
    void acceptAll();
    void handle(Tunnel &tunnel);
    void readHead(Tunnel &tunnel);
    void startConnect(Tunnel &tunnel, std::string_view requestLine);
    void finishConnect(Tunnel &tunnel);
    void splice(Tunnel &tunnel);
    void refuse(Tunnel &tunnel, std::string_view statusLine);
    void control(int operation, int fd, std::uint32_t events, Tunnel *tunnel);
    void close(Tunnel &tunnel);

    UniqueFd listener_;
    UniqueFd epoll_;
    std::set<std::string> allowedHosts_;
    std::size_t pipeSize_;
    std::unordered_map<Tunnel *, std::unique_ptr<Tunnel>> tunnels_;
    // Closed tunnels live until the end of the epoll batch that may still
    // name them.
    std::vector<std::unique_ptr<Tunnel>> closing_;
};

Relay::Relay(UniqueFd listener, std::set<std::string> allowedHosts, std::size_t pipeSize)
    : listener_(std::move(listener))
    , epoll_(epoll_create1(EPOLL_CLOEXEC))
    , allowedHosts_(std::move(allowedHosts))
    , pipeSize_(pipeSize)
{
    if (!epoll_)
        failWithErrno("epoll_create1");
    control(EPOLL_CTL_ADD, listener_.get(), EPOLLIN, nullptr);
}

void Relay::run()
{
    std::vector<epoll_event> events(256);
    for (;;) {
        const int count =
            epoll_wait(epoll_.get(), events.data(), static_cast<int>(events.size()), -1);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            failWithErrno("epoll_wait");
        for (int i = 0; i < count; ++i) {
            auto *tunnel = static_cast<Tunnel *>(events[static_cast<std::size_t>(i)].data.ptr);
            if (!tunnel)
                acceptAll();
            else if (!tunnel->closed)
                handle(*tunnel);
        }
        closing_.clear();
    }
}

void Relay::acceptAll()
{
    for (;;) {
        UniqueFd client(accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!client) {
            if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
                return;
            failWithErrno("accept4");
        }
        setNoDelay(client.get());
        auto tunnel = std::make_unique<Tunnel>();
        tunnel->client = std::move(client);
        control(EPOLL_CTL_ADD, tunnel->client.get(), EPOLLIN, tunnel.get());
        tunnels_[tunnel.get()] = std::move(tunnel);
    }
}

void Relay::handle(Tunnel &tunnel)
{
    switch (tunnel.phase) {
    case Tunnel::Phase::ReadingHead:
        readHead(tunnel);
        return;
    case Tunnel::Phase::Connecting:
        // Only the upstream socket is in the epoll set while connecting.
        finishConnect(tunnel);
        return;
    case Tunnel::Phase::Splicing:
        splice(tunnel);
        return;
    }
}

void Relay::readHead(Tunnel &tunnel)
{
    char chunk[4096];
    for (;;) {
        const ssize_t received = recv(tunnel.client.get(), chunk, sizeof chunk, 0);
        if (received < 0 && errno == EINTR)
            continue;
        if (received < 0 && errno == EAGAIN)
            break;
        if (received <= 0)
            return close(tunnel);
        tunnel.head.append(chunk, static_cast<std::size_t>(received));
    }
    const auto length = headLength(tunnel.head);
    if (!length) {
        if (tunnel.head.size() > maxHeadBytes)
            refuse(tunnel, "HTTP/1.1 431 Request Header Fields Too Large");
        return;
    }
    const std::string_view head(tunnel.head);
    startConnect(tunnel, head.substr(0, head.find("\r\n")));
}

void Relay::startConnect(Tunnel &tunnel, std::string_view requestLine)
{
    // "CONNECT host:port HTTP/1.1"
    constexpr std::string_view method = "CONNECT ";
    if (!requestLine.starts_with(method))
        return refuse(tunnel, "HTTP/1.1 405 Method Not Allowed");
    auto target = requestLine.substr(method.size());
    target = target.substr(0, target.find(' '));
    const auto colon = target.rfind(':');
    const auto endpoint = parseEndpoint(target);
    if (colon == std::string_view::npos || !endpoint)
        return refuse(tunnel, "HTTP/1.1 400 Bad Request");
    if (!allowedHosts_.contains(std::string(target.substr(0, colon))))
        return refuse(tunnel, "HTTP/1.1 403 Forbidden");

    tunnel.upstream.reset(
        socket(endpoint->address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!tunnel.upstream)
        return refuse(tunnel, "HTTP/1.1 502 Bad Gateway");
    setNoDelay(tunnel.upstream.get());
    if (connect(tunnel.upstream.get(), reinterpret_cast<const sockaddr *>(&endpoint->address),
                endpoint->length) != 0 &&
        errno != EINPROGRESS)
        return refuse(tunnel, "HTTP/1.1 502 Bad Gateway");
    tunnel.phase = Tunnel::Phase::Connecting;
    // The client leaves the epoll set until the tunnel opens: its early
    // bytes wait in its socket, and events now can only be the connect's.
    control(EPOLL_CTL_DEL, tunnel.client.get(), 0, &tunnel);
    control(EPOLL_CTL_ADD, tunnel.upstream.get(), EPOLLOUT, &tunnel);
}

void Relay::finishConnect(Tunnel &tunnel)
{
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(tunnel.upstream.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error)
        return refuse(tunnel, "HTTP/1.1 502 Bad Gateway");
    // Bytes the client sent after its CONNECT head already belong upstream.
    const auto headEnd = *headLength(tunnel.head);
    const std::string_view early = std::string_view(tunnel.head).substr(headEnd);
    if (!sendAll(tunnel.client.get(), "HTTP/1.1 200 Connection established\r\n\r\n") ||
        !sendAll(tunnel.upstream.get(), early))
        return close(tunnel);
    tunnel.head = {};

    tunnel.toUpstream = {tunnel.client.get(), tunnel.upstream.get(), makePipe(pipeSize_, true)};
    tunnel.toClient = {tunnel.upstream.get(), tunnel.client.get(), makePipe(pipeSize_, true)};
    tunnel.phase = Tunnel::Phase::Splicing;
    control(EPOLL_CTL_ADD, tunnel.client.get(), splicingEvents, &tunnel);
    control(EPOLL_CTL_MOD, tunnel.upstream.get(), splicingEvents, &tunnel);
    splice(tunnel);
}

void Relay::splice(Tunnel &tunnel)
{
    const Flow up = pump(tunnel.toUpstream);
    const Flow down = pump(tunnel.toClient);
    if (up == Flow::Failed || down == Flow::Failed ||
        (up == Flow::Finished && down == Flow::Finished))
        close(tunnel);
}

void Relay::refuse(Tunnel &tunnel, std::string_view statusLine)
{
    sendAll(tunnel.client.get(), std::string(statusLine) + "\r\nContent-Length: 0\r\n\r\n");
    close(tunnel);
}

void Relay::control(int operation, int fd, std::uint32_t events, Tunnel *tunnel)
{
    epoll_event event{};
    event.events = events;
    event.data.ptr = tunnel;
    if (epoll_ctl(epoll_.get(), operation, fd, &event) != 0)
        failWithErrno("epoll_ctl");
}

void Relay::close(Tunnel &tunnel)
{
    tunnel.closed = true;
    const auto found = tunnels_.find(&tunnel);
    closing_.push_back(std::move(found->second));
    tunnels_.erase(found);
    // Closing the sockets now takes them out of the epoll set.
    tunnel.client.reset();
    tunnel.upstream.reset();
}

std::set<std::string> splitList(std::string_view list)
{
    std::set<std::string> entries;
    while (!list.empty()) {
        const auto comma = std::min(list.find(','), list.size());
        if (comma > 0)
            entries.emplace(list.substr(0, comma));
        list.remove_prefix(std::min(comma + 1, list.size()));
    }
    return entries;
}

} // namespace

int main(int argc, char **argv)
{
    std::string listen = "127.0.0.1:0";
    std::set<std::string> allowed;
    std::size_t pipeSize = 1 << 20;
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const bool hasValue = i + 1 < argc;
        if (argument == "--listen" && hasValue) {
            listen = argv[++i];
        } else if (argument == "--allow" && hasValue) {
            allowed.merge(splitList(argv[++i]));
        } else if (argument == "--pipe-size" && hasValue) {
            const auto bytes = parseNumber(argv[++i]);
            if (!bytes)
                fail("egress-bench-relay: --pipe-size needs a byte count");
            pipeSize = static_cast<std::size_t>(*bytes);
        } else if (argument == "--help") {
            std::puts("usage: egress-bench-relay [--listen ADDR:PORT] [--allow HOST,...]\n"
                      "                          [--pipe-size BYTES]\n"
                      "A minimal CONNECT relay (IP-literal hosts, exact allowlist) that splices\n"
                      "both ways; prints {\"event\":\"listening\",\"addr\":...} on stderr.\n"
                      "--pipe-size defaults to 1 MiB (fs.pipe-max-size's default); 0 keeps\n"
                      "the kernel's default pipe size.");
            return 0;
        } else {
            fail("egress-bench-relay: unknown argument (see --help)");
        }
    }
    const auto endpoint = parseEndpoint(listen);
    if (!endpoint)
        fail("egress-bench-relay: --listen needs a numeric ADDR:PORT");
    raiseFileLimit();
    auto listener = listenOn(*endpoint, true);
    announceListening(listener.get());
    Relay(std::move(listener), std::move(allowed), pipeSize).run();
}
