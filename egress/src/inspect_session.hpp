#pragma once

// One inspected CONNECT, after its checks and its 200: the proxy is the TLS server to the guest
// (a leaf for the CONNECT's host, signed by the turn's CA) and a verifying TLS client to the
// upstream, and judges every HTTP/1.1 request on the connection by the rules before forwarding
// it. It runs on a thread of its own with blocking I/O (docs/egress.md, "Implementation"); the
// event loop only starts it, asks it to stop and joins it.

#include "config.hpp"
#include "decision_log.hpp"
#include "host_name.hpp"
#include "http_framing.hpp"
#include "posix/unique_fd.h"
#include "request_head.hpp"
#include "socket_address.hpp"
#include "turn_authority.hpp"
#include "value_scrubber.hpp"
#include "wakeup_fd.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace arizuko::egress {

struct InspectTarget
{
    HostName host;
    uint16_t port = 0;
    // The addresses the event loop resolved and checked; reconnections dial only these.
    std::vector<SocketAddress> addresses;
    std::string clientIp;
};

class InspectSession
{
public:
    // `client` stays the caller's (it must outlive the session); `upstream` is a connected TCP
    // socket to one of the target's addresses; `early` what the client sent after its CONNECT
    // head. `finished` is called on the session's thread when it ends.
    // `scrubber` takes the secrets' values out of every response (a no-op without secrets).
    InspectSession(const Config &config, const DecisionLog &log, TurnAuthority &authority,
                   const ValueScrubber &scrubber, InspectTarget target, int client,
                   posix::UniqueFd upstream, std::string early, std::function<void()> finished);
    ~InspectSession();
    InspectSession(const InspectSession &) = delete;
    InspectSession &operator=(const InspectSession &) = delete;

    void start();
    // Ends the session after its current exchange (drain).
    void stop();
    // Ends it now: both sockets are shut down, so every blocked call returns.
    void abort();
    void join();

    // Bytes relayed (heads and bodies) to the upstream and to the client; read after join().
    uint64_t bytesUp() const { return bytesUp_; }
    uint64_t bytesDown() const { return bytesDown_; }

private:
    enum class Read
    {
        Got,
        Closed,
        TimedOut,
        TooLarge,
    };

    void run();
    bool serveOne();
    Read readHead(SSL *ssl, int fd, std::string &buffered, size_t &headLength, bool idle);
    bool relayBody(SSL *from, std::string &buffered, SSL *to, BodyReader &body, uint64_t &counted,
                   uint64_t limit, BodyScrubber *scrubber = nullptr);
    // Reads on until the request body's first bytes (up to the leak window) or its end are in
    // clientIn_; returns them, or nothing when the client failed.
    std::optional<std::string_view> bodyStart(const BodyFraming &framing);
    // The rest of a refused request's body is dropped so the connection can go on.
    bool refuseRequest(ExchangeRecord &record, const RequestHead &request,
                       const BodyFraming &framing, Reason reason, const std::string &detail);
    bool readInto(SSL *ssl, std::string &buffered);
    bool writeAll(SSL *ssl, std::string_view bytes);
    // Connects (again, after the first) and verifies the upstream; a failure is answered.
    bool ensureUpstream(ExchangeRecord &record);
    posix::UniqueFd dial(std::string &error);
    void setUpstream(posix::UniqueFd socket);
    void dropUpstream();
    // Logs the decision and sends the proxy's error response; returns whether the connection can
    // carry on.
    bool refuse(ExchangeRecord &record, Reason reason, const std::string &detail, bool keepAlive);
    void logDecision(ExchangeRecord &record, Reason reason, int status);
    void logClose(const ExchangeRecord &record);

    const Config &config_;
    const DecisionLog &log_;
    TurnAuthority &authority_;
    const ValueScrubber &scrubber_;
    const InspectTarget target_;
    const std::string authorityText_;
    const int client_;
    std::mutex upstreamMutex_;
    posix::UniqueFd upstream_;
    bool upstreamUsed_ = false;
    UniqueSsl clientTls_;
    UniqueSsl upstreamTls_;
    std::string clientIn_;
    std::string early_;
    std::vector<char> scratch_;
    std::function<void()> finished_;
    WakeupFd stopRequested_;
    std::atomic<bool> stopping_ = false;
    std::atomic<bool> aborted_ = false;
    std::atomic<uint64_t> bytesUp_ = 0;
    std::atomic<uint64_t> bytesDown_ = 0;
    std::thread thread_;
};

} // namespace arizuko::egress
