// egress-bench-upstream: the origin server behind every benchmark path. It
// answers `GET /bytes/N` with N zero bytes and any other request with a
// three-byte body, and keeps connections alive until the peer closes. Bulk
// bytes leave by tee(2)+splice(2) from one pre-filled pipe, so serving costs
// almost no CPU and the path under test, not the server, sets the pace.

#include "bench_socket.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/epoll.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

using namespace egress_bench;

namespace {

constexpr std::size_t zeroPipeBytes = 1 << 20;
constexpr std::string_view bulkPrefix = "GET /bytes/";
constexpr std::string_view smallReply =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n";

struct Connection
{
    UniqueFd socket;
    std::uint32_t interest = EPOLLIN;
    std::string received;
    std::string reply; // head, or the whole small reply, not yet sent
    std::size_t replySent = 0;
    std::uint64_t bulkLeft = 0;
    std::optional<Pipe> work; // references tee'd from the zero pipe
    std::size_t workQueued = 0;
};

enum class Sending
{
    Done,
    Blocked,
    Failed
};

class Upstream
{
public:
    explicit Upstream(UniqueFd listener);
    [[noreturn]] void run();

private:
    void acceptAll();
    // Serves until the connection blocks; false when it is to be closed.
    bool serve(Connection &connection);
    Sending sendPending(Connection &connection);
    Sending sendBulk(Connection &connection);
    void startReply(Connection &connection, std::string_view head);
    void watch(Connection &connection, std::uint32_t events);

    UniqueFd listener_;
    UniqueFd epoll_;
    Pipe zeros_;
    std::unordered_map<int, std::unique_ptr<Connection>> connections_;
};

Upstream::Upstream(UniqueFd listener)
    : listener_(std::move(listener))
    , epoll_(epoll_create1(EPOLL_CLOEXEC))
    , zeros_(makePipe(zeroPipeBytes, false))
{
    if (!epoll_)
        failWithErrno("epoll_create1");
    const std::vector<char> zeroBytes(zeros_.capacity, 0);
    if (write(zeros_.writeEnd.get(), zeroBytes.data(), zeroBytes.size()) !=
        static_cast<ssize_t>(zeroBytes.size()))
        failWithErrno("filling the zero pipe");
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = listener_.get();
    if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listener_.get(), &event) != 0)
        failWithErrno("epoll_ctl");
}

void Upstream::run()
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
            const int fd = events[static_cast<std::size_t>(i)].data.fd;
            if (fd == listener_.get()) {
                acceptAll();
                continue;
            }
            const auto found = connections_.find(fd);
            if (found != connections_.end() && !serve(*found->second))
                connections_.erase(found);
        }
    }
}

void Upstream::acceptAll()
{
    for (;;) {
        UniqueFd socket(accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!socket) {
            if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
                return;
            failWithErrno("accept4");
        }
        setNoDelay(socket.get());
        auto connection = std::make_unique<Connection>();
        connection->socket = std::move(socket);
        epoll_event event{};
        event.events = connection->interest;
        event.data.fd = connection->socket.get();
        if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, event.data.fd, &event) != 0)
            failWithErrno("epoll_ctl");
        connections_[event.data.fd] = std::move(connection);
    }
}

bool Upstream::serve(Connection &connection)
{
    for (;;) {
        if (connection.replySent < connection.reply.size() || connection.bulkLeft > 0) {
            const Sending sending = sendPending(connection);
            if (sending == Sending::Failed)
                return false;
            if (sending == Sending::Blocked) {
                watch(connection, EPOLLOUT);
                return true;
            }
            continue;
        }
        if (const auto length = headLength(connection.received)) {
            startReply(connection, std::string_view(connection.received).substr(0, *length));
            connection.received.erase(0, *length);
            continue;
        }
        char chunk[4096];
        const ssize_t received = recv(connection.socket.get(), chunk, sizeof chunk, 0);
        if (received > 0) {
            connection.received.append(chunk, static_cast<std::size_t>(received));
            continue;
        }
        if (received < 0 && errno == EINTR)
            continue;
        if (received < 0 && errno == EAGAIN) {
            watch(connection, EPOLLIN);
            return true;
        }
        return false;
    }
}

void Upstream::startReply(Connection &connection, std::string_view head)
{
    connection.replySent = 0;
    if (head.starts_with(bulkPrefix)) {
        const auto path = head.substr(bulkPrefix.size());
        if (const auto bytes = parseNumber(path.substr(0, path.find(' ')))) {
            connection.reply = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                               "Content-Length: " +
                               std::to_string(*bytes) + "\r\n\r\n";
            connection.bulkLeft = *bytes;
            return;
        }
    }
    connection.reply = smallReply;
}

Sending Upstream::sendPending(Connection &connection)
{
    while (connection.replySent < connection.reply.size()) {
        const auto rest = std::string_view(connection.reply).substr(connection.replySent);
        const int more = connection.bulkLeft > 0 ? MSG_MORE : 0;
        const ssize_t sent =
            send(connection.socket.get(), rest.data(), rest.size(), MSG_NOSIGNAL | more);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && errno == EAGAIN)
            return Sending::Blocked;
        if (sent < 0)
            return Sending::Failed;
        connection.replySent += static_cast<std::size_t>(sent);
    }
    return sendBulk(connection);
}

Sending Upstream::sendBulk(Connection &connection)
{
    if (connection.bulkLeft > 0 && !connection.work)
        connection.work = makePipe(zeroPipeBytes, true);
    while (connection.bulkLeft > 0) {
        if (connection.workQueued == 0) {
            // Only what is still owed goes in, so a kept-alive connection
            // never carries stray bytes into its next reply.
            const auto wanted =
                std::min<std::uint64_t>(connection.bulkLeft, connection.work->capacity);
            const ssize_t copied = tee(zeros_.readEnd.get(), connection.work->writeEnd.get(),
                                       static_cast<std::size_t>(wanted), SPLICE_F_NONBLOCK);
            if (copied <= 0)
                failWithErrno("tee");
            connection.workQueued = static_cast<std::size_t>(copied);
        }
        const unsigned more = connection.bulkLeft > connection.workQueued ? SPLICE_F_MORE : 0;
        const ssize_t sent =
            splice(connection.work->readEnd.get(), nullptr, connection.socket.get(), nullptr,
                   connection.workQueued, SPLICE_F_MOVE | SPLICE_F_NONBLOCK | more);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && errno == EAGAIN)
            return Sending::Blocked;
        if (sent <= 0)
            return Sending::Failed;
        connection.workQueued -= static_cast<std::size_t>(sent);
        connection.bulkLeft -= static_cast<std::uint64_t>(sent);
    }
    return Sending::Done;
}

void Upstream::watch(Connection &connection, std::uint32_t events)
{
    if (connection.interest == events)
        return;
    connection.interest = events;
    epoll_event event{};
    event.events = events;
    event.data.fd = connection.socket.get();
    if (epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, event.data.fd, &event) != 0)
        failWithErrno("epoll_ctl");
}

} // namespace

int main(int argc, char **argv)
{
    std::string listen = "127.0.0.1:0";
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--listen" && i + 1 < argc) {
            listen = argv[++i];
        } else if (argument == "--help") {
            std::puts("usage: egress-bench-upstream [--listen ADDR:PORT]\n"
                      "Serves GET /bytes/N (N zero bytes) and a 3-byte reply to anything else;\n"
                      "prints {\"event\":\"listening\",\"addr\":...} on stderr once bound.");
            return 0;
        } else {
            fail("egress-bench-upstream: unknown argument (see --help)");
        }
    }
    const auto endpoint = parseEndpoint(listen);
    if (!endpoint)
        fail("egress-bench-upstream: --listen needs a numeric ADDR:PORT");
    raiseFileLimit();
    auto listener = listenOn(*endpoint, true);
    announceListening(listener.get());
    Upstream(std::move(listener)).run();
}
