#include "resolver.hpp"

#include "wakeup_fd.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <netdb.h>
#include <thread>
#include <utility>

namespace arizuko::egress {
namespace {

// Enough that a slow lookup does not hold up others; lookups are rare next to traffic.
constexpr size_t kMaxWorkers = 4;

struct Request
{
    uint64_t requester;
    std::string host;
    uint16_t port;
};

Resolver::Answer resolve(const Request &request)
{
    Resolver::Answer answer;
    answer.requester = request.requester;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const int status = getaddrinfo(request.host.c_str(), nullptr, &hints, &found);
    if (status != 0) {
        answer.error = gai_strerror(status);
        return answer;
    }
    for (const addrinfo *entry = found; entry != nullptr; entry = entry->ai_next) {
        if (entry->ai_family != AF_INET && entry->ai_family != AF_INET6)
            continue;
        SocketAddress address = SocketAddress::fromSockaddr(entry->ai_addr, entry->ai_addrlen);
        address.setPort(request.port);
        const bool seen = std::any_of(
            answer.addresses.begin(), answer.addresses.end(), [&](const SocketAddress &other) {
                return other.family() == address.family() && other.sameIp(address);
            });
        if (!seen)
            answer.addresses.push_back(address);
    }
    freeaddrinfo(found);
    if (answer.addresses.empty())
        answer.error = "no IPv4 or IPv6 address";
    return answer;
}

} // namespace

struct Resolver::Shared
{
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Request> requests;
    std::vector<Answer> answers;
    size_t workers = 0;
    size_t idleWorkers = 0;
    WakeupFd ready;

    void work()
    {
        std::unique_lock lock(mutex);
        while (true) {
            ++idleWorkers;
            wake.wait(lock, [this] { return !requests.empty(); });
            --idleWorkers;
            const Request request = std::move(requests.front());
            requests.pop_front();
            lock.unlock();
            Answer answer = resolve(request);
            lock.lock();
            answers.push_back(std::move(answer));
            ready.notify();
        }
    }
};

Resolver::Resolver()
    : shared_(std::make_shared<Shared>())
{}

int Resolver::readyFd() const
{
    return shared_->ready.fd();
}

void Resolver::lookUp(uint64_t requester, std::string host, uint16_t port)
{
    std::lock_guard lock(shared_->mutex);
    shared_->requests.push_back({requester, std::move(host), port});
    if (shared_->idleWorkers < shared_->requests.size() && shared_->workers < kMaxWorkers) {
        ++shared_->workers;
        std::thread([shared = shared_] { shared->work(); }).detach();
    }
    shared_->wake.notify_one();
}

std::vector<Resolver::Answer> Resolver::takeAnswers()
{
    shared_->ready.drain();
    std::lock_guard lock(shared_->mutex);
    return std::exchange(shared_->answers, {});
}

} // namespace arizuko::egress
