#pragma once

// Host name lookups off the event loop: getaddrinfo blocks, so a few worker threads run it and
// post each answer back through an eventfd the loop watches.

#include "socket_address.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arizuko::egress {

class Resolver
{
public:
    struct Answer
    {
        uint64_t requester = 0;
        std::vector<SocketAddress> addresses; // in the resolver's order, duplicates dropped
        std::string error;                    // set when there are no addresses
    };

    Resolver();

    // Becomes readable when answers are waiting.
    int readyFd() const;
    void lookUp(uint64_t requester, std::string host, uint16_t port);
    std::vector<Answer> takeAnswers();

private:
    struct Shared;
    // Workers are detached and own a share of the state, so a lookup still running at exit
    // never touches freed memory.
    std::shared_ptr<Shared> shared_;
};

} // namespace arizuko::egress
