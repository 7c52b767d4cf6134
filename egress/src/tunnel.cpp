#include "tunnel.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/socket.h>

namespace arizuko::egress {
namespace {

// A direction that has carried this much is moving bulk data; a bigger pipe then means fewer,
// larger splices. Other tunnels keep the default size, which keeps a thousand of them within the
// per-user pipe budget (fs.pipe-user-pages-soft).
constexpr uint64_t kBulkBytes = 1 << 20;
constexpr int kBulkPipeSize = 1 << 20;
// The kernel's default pipe size. Only an upper bound for one splice is needed: a pipe made
// smaller (its owner over the pipe budget) takes less, and a full pipe answers EAGAIN, which
// pumpDirection() tells apart from an empty socket.
constexpr size_t kDefaultPipeCapacity = 64 * 1024;

bool wouldBlock()
{
    return errno == EAGAIN || errno == EWOULDBLOCK;
}

} // namespace

bool Tunnel::makePipe(Direction &direction)
{
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return false;
    direction.pipeRead.reset(fds[0]);
    direction.pipeWrite.reset(fds[1]);
    direction.pipeCapacity = kDefaultPipeCapacity;
    return true;
}

std::unique_ptr<Tunnel> Tunnel::create(int clientFd, SocketReadiness &client, int upstreamFd,
                                       SocketReadiness &upstream, std::string pendingUpstream)
{
    std::unique_ptr<Tunnel> tunnel(new Tunnel());
    tunnel->up_.from = clientFd;
    tunnel->up_.to = upstreamFd;
    tunnel->up_.source = &client;
    tunnel->up_.sink = &upstream;
    tunnel->down_.from = upstreamFd;
    tunnel->down_.to = clientFd;
    tunnel->down_.source = &upstream;
    tunnel->down_.sink = &client;
    tunnel->pendingUpstream_ = std::move(pendingUpstream);
    if (!makePipe(tunnel->up_) || !makePipe(tunnel->down_))
        return nullptr;
    return tunnel;
}

bool Tunnel::sendPending()
{
    while (pendingSent_ < pendingUpstream_.size() && up_.sink->writable) {
        const ssize_t sent = ::send(up_.to, pendingUpstream_.data() + pendingSent_,
                                    pendingUpstream_.size() - pendingSent_, MSG_NOSIGNAL);
        if (sent < 0) {
            if (!wouldBlock())
                return false;
            up_.sink->writable = false;
            return true;
        }
        pendingSent_ += static_cast<size_t>(sent);
        up_.moved += static_cast<uint64_t>(sent);
    }
    if (pendingSent_ == pendingUpstream_.size() && !pendingUpstream_.empty())
        std::string().swap(pendingUpstream_);
    return true;
}

bool Tunnel::pumpDirection(Direction &direction)
{
    while (true) {
        bool progressed = false;
        if (direction.inPipe > 0 && direction.sink->writable) {
            const ssize_t moved = splice(direction.pipeRead.get(), nullptr, direction.to, nullptr,
                                         direction.inPipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (moved > 0) {
                direction.inPipe -= static_cast<size_t>(moved);
                direction.moved += static_cast<uint64_t>(moved);
                progressed = true;
            } else if (moved < 0 && wouldBlock()) {
                direction.sink->writable = false;
            } else {
                return false;
            }
        }
        if (!direction.sourceEnded && direction.source->readable &&
            direction.inPipe < direction.pipeCapacity) {
            const size_t space = direction.pipeCapacity - direction.inPipe;
            const ssize_t moved = splice(direction.from, nullptr, direction.pipeWrite.get(),
                                         nullptr, space, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (moved > 0) {
                direction.inPipe += static_cast<size_t>(moved);
                progressed = true;
                if (!direction.grown && direction.moved + direction.inPipe >= kBulkBytes) {
                    direction.grown = true;
                    const int size = fcntl(direction.pipeWrite.get(), F_SETPIPE_SZ, kBulkPipeSize);
                    if (size > 0)
                        direction.pipeCapacity = static_cast<size_t>(size);
                }
            } else if (moved == 0) {
                direction.sourceEnded = true;
                progressed = true;
            } else if (wouldBlock()) {
                // With bytes still in the pipe, EAGAIN may mean the pipe ran out of slots rather
                // than the socket out of data; keep the flag so the source is tried again once
                // the pipe drains, instead of waiting for an edge that already happened.
                if (direction.inPipe == 0)
                    direction.source->readable = false;
            } else {
                return false;
            }
        }
        if (direction.sourceEnded && direction.inPipe == 0 && !direction.sinkShut) {
            ::shutdown(direction.to, SHUT_WR);
            direction.sinkShut = true;
        }
        if (!progressed)
            return true;
    }
}

Tunnel::Progress Tunnel::pump()
{
    if (!sendPending())
        return Progress::Failed;
    if (!pendingUpstream_.empty()) {
        // Early client bytes must reach the upstream before anything spliced after them.
        return pumpDirection(down_) ? Progress::Running : Progress::Failed;
    }
    if (!pumpDirection(up_) || !pumpDirection(down_))
        return Progress::Failed;
    if (up_.sinkShut && down_.sinkShut)
        return Progress::Finished;
    return Progress::Running;
}

} // namespace arizuko::egress
