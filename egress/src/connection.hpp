#pragma once

// One client connection, from its first byte to its close: read a request head, decide, resolve,
// connect, then relay (a spliced tunnel or forwarded HTTP exchanges), or answer with an error.

#include "byte_buffer.hpp"
#include "decision_log.hpp"
#include "event_loop.hpp"
#include "http_exchange.hpp"
#include "http_framing.hpp"
#include "inspect_session.hpp"
#include "request_head.hpp"
#include "resolver.hpp"
#include "socket_address.hpp"
#include "socket_readiness.hpp"
#include "tunnel.hpp"
#include "posix/unique_fd.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace arizuko::egress {

class ProxyServer;

class Connection
{
public:
    Connection(ProxyServer &server, uint64_t id, posix::UniqueFd client, const SocketAddress &peer);
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // Starts serving: reads the first request head.
    void start();
    // Answers 503 connection-limit without serving (the connection holds no slot).
    void refuseAtLimit();
    void onResolved(Resolver::Answer answer);
    // The user's answer to the question this connection waits on (--ask); `why` says, for a
    // denial, what happened ("was denied by the user").
    void onAnswer(uint64_t question, Answer answer, Reason denial, const std::string &why);
    void onDeadline();
    // The inspected connection's thread ended.
    void onInspectionDone();
    // On shutdown: a connection idle between requests closes now, others finish their exchange.
    void beginDrain();
    // Closes both sockets at once and logs the exchange's totals.
    void close();

private:
    enum class Phase
    {
        ReadingHead,
        Asking,
        Resolving,
        Connecting,
        Tunnel,
        Inspecting,
        Exchange,
        Responding,
        Closed,
    };

    class SocketWatcher final : public EventLoop::Watcher
    {
    public:
        SocketWatcher(Connection &connection, bool upstream)
            : connection_(connection)
            , upstream_(upstream)
        {}
        void onEvents(uint32_t events) override;

    private:
        Connection &connection_;
        bool upstream_;
    };

    void onClientEvents(uint32_t events);
    void onUpstreamEvents(uint32_t events);
    void readHead();
    void handleHead(size_t headLength);
    void askUser();
    void goUpstream();
    std::string allowHintFor() const;
    void checkAddressesAndConnect();
    void connectNext();
    void finishConnecting();
    void startRelay();
    void startInspection();
    // For an inspected host, judges a plain-HTTP request by the rules; false when it was refused.
    bool judgePlainRequest();
    void pumpTunnel();
    void pumpExchange();
    void endExchange(bool keepAlive);
    void refuse(Reason reason, const std::string &detail);
    void answerHealthCheck();
    void pumpResponding();
    void beginRecord(std::string method, std::string host, uint16_t port, std::string path = {});
    void logDecision(Reason reason, int status);
    void collectRelayBytes();
    void setDeadline(std::chrono::milliseconds fromNow);
    void releaseSlot();

    ProxyServer &server_;
    const uint64_t id_;
    posix::UniqueFd client_;
    posix::UniqueFd upstream_;
    const std::string clientIp_;
    const bool clientPermitted_;
    SocketWatcher clientWatcher_{*this, false};
    SocketWatcher upstreamWatcher_{*this, true};
    SocketReadiness clientReady_{true, true};
    SocketReadiness upstreamReady_;
    Phase phase_ = Phase::ReadingHead;
    bool holdsSlot_ = true;
    ByteBuffer clientIn_;
    ByteBuffer clientOut_;
    RequestHead request_;
    BodyFraming requestFraming_;
    std::optional<ExchangeRecord> record_;
    std::vector<SocketAddress> addresses_;
    size_t nextAddress_ = 0;
    std::string lastConnectError_;
    bool lastConnectTimedOut_ = false;
    std::unique_ptr<Tunnel> tunnel_;
    std::unique_ptr<HttpExchange> exchange_;
    // The host is inspected (--rule): a CONNECT terminates TLS, each request is judged.
    bool inspected_ = false;
    std::unique_ptr<InspectSession> inspection_;
    size_t lingerDiscarded_ = 0;
    uint64_t question_ = 0;
};

} // namespace arizuko::egress
