#pragma once

// The byte tunnel behind an accepted CONNECT: each direction is spliced socket -> pipe -> socket,
// so payload never enters user space. End of input in one direction is passed on with
// shutdown(SHUT_WR); the tunnel ends when both directions have ended or either socket fails.

#include "socket_readiness.hpp"
#include "posix/unique_fd.h"

#include <cstdint>
#include <memory>
#include <string>

namespace arizuko::egress {

class Tunnel
{
public:
    enum class Progress
    {
        Running,
        Finished,
        Failed,
    };

    // `pendingUpstream` holds bytes the client sent after its CONNECT head (a TLS ClientHello
    // sent early); they go first. Returns nothing when no pipe can be made (out of descriptors).
    static std::unique_ptr<Tunnel> create(int clientFd, SocketReadiness &client, int upstreamFd,
                                          SocketReadiness &upstream, std::string pendingUpstream);

    // Moves what can be moved without blocking.
    Progress pump();
    uint64_t bytesUp() const { return up_.moved; }
    uint64_t bytesDown() const { return down_.moved; }

private:
    struct Direction
    {
        int from = -1;
        int to = -1;
        SocketReadiness *source = nullptr;
        SocketReadiness *sink = nullptr;
        posix::UniqueFd pipeRead;
        posix::UniqueFd pipeWrite;
        size_t inPipe = 0;
        size_t pipeCapacity = 0;
        bool grown = false;
        bool sourceEnded = false;
        bool sinkShut = false;
        uint64_t moved = 0;
    };
    Tunnel() = default;
    static bool makePipe(Direction &direction);
    // Each returns false when a socket failed.
    static bool pumpDirection(Direction &direction);
    bool sendPending();

    Direction up_;
    Direction down_;
    std::string pendingUpstream_;
    size_t pendingSent_ = 0;
};

} // namespace arizuko::egress
