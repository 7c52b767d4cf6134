#pragma once

// Non-blocking reads and writes between a socket and a ByteBuffer, keeping the socket's readiness
// flags in step with what the kernel answered.

#include "byte_buffer.hpp"
#include "socket_readiness.hpp"

#include <cstddef>
#include <span>

namespace arizuko::egress {

struct IoOutcome
{
    enum class Kind
    {
        Moved,
        WouldBlock,
        Closed,
        Failed,
    };
    Kind kind;
    size_t bytes = 0;
};

// Small writes (a 200, a request head) go out at once: latency matters more than packet count.
void disableNagle(int fd);

// One recv into `space`; Closed is the peer's end of input.
IoOutcome receive(int fd, SocketReadiness &readiness, std::span<char> space);
// One recv appended to `buffer` (up to its room).
IoOutcome receiveInto(int fd, SocketReadiness &readiness, ByteBuffer &buffer);
// Sends from `buffer` until it is empty or the socket would block; consumes what was sent.
IoOutcome sendFrom(int fd, SocketReadiness &readiness, ByteBuffer &buffer);

} // namespace arizuko::egress
