#include "socket_io.hpp"

#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace arizuko::egress {

void disableNagle(int fd)
{
    const int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

IoOutcome receive(int fd, SocketReadiness &readiness, std::span<char> space)
{
    const ssize_t received = ::recv(fd, space.data(), space.size(), 0);
    if (received > 0)
        return {IoOutcome::Kind::Moved, static_cast<size_t>(received)};
    if (received == 0)
        return {IoOutcome::Kind::Closed};
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        readiness.readable = false;
        return {IoOutcome::Kind::WouldBlock};
    }
    if (errno == EINTR)
        return {IoOutcome::Kind::WouldBlock};
    return {IoOutcome::Kind::Failed};
}

IoOutcome receiveInto(int fd, SocketReadiness &readiness, ByteBuffer &buffer)
{
    const std::span<char> space = buffer.writable();
    if (space.empty())
        return {IoOutcome::Kind::WouldBlock};
    const IoOutcome outcome = receive(fd, readiness, space);
    buffer.commit(outcome.bytes);
    return outcome;
}

IoOutcome sendFrom(int fd, SocketReadiness &readiness, ByteBuffer &buffer)
{
    size_t total = 0;
    while (!buffer.empty() && readiness.writable) {
        const auto pending = buffer.view();
        const ssize_t sent = ::send(fd, pending.data(), pending.size(), MSG_NOSIGNAL);
        if (sent >= 0) {
            buffer.consume(static_cast<size_t>(sent));
            total += static_cast<size_t>(sent);
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            readiness.writable = false;
        } else if (errno != EINTR) {
            return {IoOutcome::Kind::Failed, total};
        }
    }
    return {total > 0 ? IoOutcome::Kind::Moved : IoOutcome::Kind::WouldBlock, total};
}

} // namespace arizuko::egress
