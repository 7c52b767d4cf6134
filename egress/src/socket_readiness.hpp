#pragma once

// What edge-triggered epoll last said about one socket: set by events, cleared by EAGAIN.

#include <cstdint>
#include <sys/epoll.h>

namespace arizuko::egress {

struct SocketReadiness
{
    bool readable = false;
    bool writable = false;

    void update(uint32_t events)
    {
        // Errors and hang-ups are reported by the next read or write, so they count as readiness.
        if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0)
            readable = true;
        if ((events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) != 0)
            writable = true;
    }
};

} // namespace arizuko::egress
