#pragma once

// The proxy's single thread: edge-triggered epoll plus one deadline per connection. Handlers run
// until their sockets would block, so each readiness change costs one wake-up and no epoll_ctl.

#include "deadline_queue.hpp"
#include "posix/unique_fd.h"

#include <cstdint>
#include <functional>
#include <sys/epoll.h>

namespace arizuko::egress {

class EventLoop
{
public:
    class Watcher
    {
    public:
        virtual void onEvents(uint32_t events) = 0;

    protected:
        ~Watcher() = default;
    };

    using Clock = DeadlineQueue::Clock;

    EventLoop();

    // Watches `fd`, edge-triggered, until it is closed: for input, output and hang-up (a socket),
    // or only for input (an eventfd, which is always writable; a listener; a signalfd).
    enum class Interest
    {
        ReadWrite,
        Read,
    };
    void watch(int fd, Watcher &watcher, Interest interest = Interest::ReadWrite);
    void unwatch(int fd);

    DeadlineQueue &deadlines() { return deadlines_; }
    // The time of the current wake-up, read once per batch of events.
    Clock::time_point now() const { return now_; }

    // Waits for events (or the next deadline), dispatches them, then hands each expired deadline's
    // id to `onDeadline` and calls `afterBatch`.
    void runOnce(const std::function<void(uint64_t)> &onDeadline,
                 const std::function<void()> &afterBatch);

private:
    posix::UniqueFd epoll_;
    DeadlineQueue deadlines_;
    Clock::time_point now_ = Clock::now();
};

} // namespace arizuko::egress
