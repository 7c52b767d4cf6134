#include "event_loop.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace arizuko::egress {

EventLoop::EventLoop()
    : epoll_(epoll_create1(EPOLL_CLOEXEC))
{
    if (!epoll_)
        throw std::runtime_error(std::string("epoll_create1: ") + std::strerror(errno));
}

void EventLoop::watch(int fd, Watcher &watcher, Interest interest)
{
    epoll_event event{};
    event.events = interest == Interest::ReadWrite ? EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET
                                                   : EPOLLIN | EPOLLET;
    event.data.ptr = &watcher;
    if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) != 0)
        throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
}

void EventLoop::unwatch(int fd)
{
    epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
}

void EventLoop::runOnce(const std::function<void(uint64_t)> &onDeadline,
                        const std::function<void()> &afterBatch)
{
    int timeoutMs = -1;
    if (const auto next = deadlines_.next()) {
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now());
        timeoutMs = static_cast<int>(std::clamp<int64_t>(wait.count(), 0, 3'600'000));
    }
    std::array<epoll_event, 256> events;
    const int count = epoll_wait(epoll_.get(), events.data(), events.size(), timeoutMs);
    now_ = Clock::now();
    for (int i = 0; i < count; ++i)
        static_cast<Watcher *>(events[i].data.ptr)->onEvents(events[i].events);
    for (const uint64_t id : deadlines_.takeExpired(now_))
        onDeadline(id);
    afterBatch();
}

} // namespace arizuko::egress
