#include "proxy_server.hpp"

#include "json_line.hpp"
#include "socket_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>

namespace arizuko::egress {
namespace {

// The drain deadline shares the deadline queue with connections, whose ids start at 1.
constexpr uint64_t kDrainDeadlineId = 0;

std::string systemError(std::string_view what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

ProxyServer::ProxyServer(Config config)
    : config_(std::move(config))
{
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    signals_.reset(signalfd(-1, &stopSignals, SFD_NONBLOCK | SFD_CLOEXEC));
    loop_.watch(signals_.get(), signalWatcher_, EventLoop::Interest::Read);
    loop_.watch(resolver_.readyFd(), resolverWatcher_, EventLoop::Interest::Read);
}

Expected<SocketAddress> ProxyServer::listen()
{
    const SocketAddress &wanted = config_.listen;
    posix::UniqueFd listener(
        ::socket(wanted.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!listener)
        return Failure{systemError("socket")};
    const int on = 1;
    setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (::bind(listener.get(), wanted.get(), wanted.length()) != 0)
        return Failure{systemError("bind " + wanted.toString())};
    if (::listen(listener.get(), SOMAXCONN) != 0)
        return Failure{systemError("listen")};
    sockaddr_storage bound{};
    socklen_t length = sizeof(bound);
    getsockname(listener.get(), reinterpret_cast<sockaddr *>(&bound), &length);
    listener_ = std::move(listener);
    bound_ = SocketAddress::fromSockaddr(reinterpret_cast<sockaddr *>(&bound), length);
    return bound_;
}

int ProxyServer::run()
{
    loop_.watch(listener_.get(), listenerWatcher_, EventLoop::Interest::Read);
    if (config_.allowFile || config_.denyFile) {
        loader_ = std::make_unique<ListLoader>(config_.allowFile, config_.denyFile);
        loop_.watch(loader_->readyFd(), loaderWatcher_, EventLoop::Interest::Read);
    } else {
        markReady();
    }
    while (!stopped_) {
        loop_.runOnce([this](uint64_t id) { onDeadline(id); }, [this] { afterBatch(); });
        if (draining_ && connections_.empty())
            stopped_ = true;
    }
    return exitStatus_;
}

void ProxyServer::finishLoading()
{
    auto taken = loader_->take();
    if (!taken)
        return;
    loader_.reset();
    Expected<ListLoader::Lists> &lists = *taken;
    if (!lists) {
        std::fprintf(stderr, "arizuko-egress: %s\n", lists.error().c_str());
        exitStatus_ = 2;
        stopped_ = true;
        return;
    }
    config_.policy.allowList().merge(std::move(lists->allow));
    config_.policy.denyList().merge(std::move(lists->deny));
    markReady();
}

void ProxyServer::markReady()
{
    ready_ = true;
    const HostPolicy &policy = config_.policy;
    const auto now = std::chrono::system_clock::now();
    if (policy.allowList().size() == 0 && !policy.allowAll())
        log_.write(JsonLine(now, "warning")
                       .add("message", "the allowlist is empty: every host is denied")
                       .finish());
    log_.write(JsonLine(now, "ready")
                   .add("addr", bound_.toString())
                   .addNumber("allow", static_cast<int64_t>(policy.allowList().size()))
                   .addNumber("deny", static_cast<int64_t>(policy.denyList().size()))
                   .addFlag("allow_all", policy.allowAll())
                   .addFlag("deny_private", config_.denyPrivate)
                   .addFlag("allow_loopback", config_.allowLoopback)
                   .add("client", config_.client ? config_.client->ipString() : "any")
                   .finish());
}

void ProxyServer::afterBatch()
{
    const bool descriptorsFreed = !retired_.empty();
    retired_.clear();
    // Edge-triggered: connections left in the backlog while out of descriptors raise no new
    // event, so accepting resumes when closed connections hand descriptors back.
    if (acceptStalled_ && descriptorsFreed)
        acceptAll();
}

void ProxyServer::retire(uint64_t id)
{
    const auto found = connections_.find(id);
    if (found == connections_.end())
        return;
    retired_.push_back(std::move(found->second));
    connections_.erase(found);
}

void ProxyServer::acceptAll()
{
    while (listener_) {
        sockaddr_storage peer{};
        socklen_t length = sizeof(peer);
        posix::UniqueFd client(accept4(listener_.get(), reinterpret_cast<sockaddr *>(&peer),
                                       &length, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!client) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            const bool stalled = errno != EAGAIN && errno != EWOULDBLOCK;
            if (stalled && !acceptStalled_)
                log_.write(JsonLine(std::chrono::system_clock::now(), "warning")
                               .add("message", systemError("accept"))
                               .finish());
            acceptStalled_ = stalled;
            return;
        }
        const bool atLimit = serving_ >= config_.maxConnections;
        // Refusals linger briefly; past twice the limit even that is not worth a descriptor.
        if (atLimit && connections_.size() >= 2 * config_.maxConnections)
            continue;
        disableNagle(client.get());
        const uint64_t id = nextId_++;
        const SocketAddress peerAddress =
            SocketAddress::fromSockaddr(reinterpret_cast<sockaddr *>(&peer), length);
        auto &connection = connections_[id];
        connection = std::make_unique<Connection>(*this, id, std::move(client), peerAddress);
        if (atLimit) {
            connection->refuseAtLimit();
        } else {
            ++serving_;
            connection->start();
        }
    }
}

void ProxyServer::deliverAnswers()
{
    for (Resolver::Answer &answer : resolver_.takeAnswers()) {
        const auto found = connections_.find(answer.requester);
        if (found != connections_.end())
            found->second->onResolved(std::move(answer));
    }
}

void ProxyServer::forEachConnection(const std::function<void(Connection &)> &action)
{
    // Actions may close connections, which changes the map.
    std::vector<uint64_t> ids;
    ids.reserve(connections_.size());
    for (const auto &entry : connections_)
        ids.push_back(entry.first);
    for (const uint64_t id : ids) {
        const auto found = connections_.find(id);
        if (found != connections_.end())
            action(*found->second);
    }
}

void ProxyServer::onSignal()
{
    signalfd_siginfo info{};
    while (::read(signals_.get(), &info, sizeof(info)) == sizeof(info)) {
        if (draining_)
            continue;
        draining_ = true;
        loop_.unwatch(listener_.get());
        listener_.reset();
        log_.write(JsonLine(std::chrono::system_clock::now(), "draining")
                       .addNumber("signal", info.ssi_signo)
                       .addNumber("open_connections", static_cast<int64_t>(connections_.size()))
                       .finish());
        loop_.deadlines().set(kDrainDeadlineId, loop_.now() + config_.drainTimeout);
        forEachConnection([](Connection &connection) { connection.beginDrain(); });
    }
}

void ProxyServer::onDeadline(uint64_t id)
{
    if (id == kDrainDeadlineId) {
        forEachConnection([](Connection &connection) { connection.close(); });
        stopped_ = true;
        return;
    }
    const auto found = connections_.find(id);
    if (found != connections_.end())
        found->second->onDeadline();
}

} // namespace arizuko::egress
