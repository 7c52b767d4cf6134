#include "connection.hpp"

#include "address_policy.hpp"
#include "host_matcher.hpp"
#include "json_line.hpp"
#include "pending_questions.hpp"
#include "proxy_server.hpp"
#include "request_rules.hpp"
#include "socket_io.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <sys/socket.h>

namespace arizuko::egress {
namespace {

using namespace std::chrono_literals;

// After an error response the proxy reads and drops what the client still sends for this long
// (or this much), so the client reads the response instead of a reset.
constexpr auto kLingerTime = 2s;
constexpr size_t kLingerBytes = 1 << 20;
constexpr size_t kReplySize = 4096;
constexpr std::string_view kTunnelEstablished = "HTTP/1.1 200 Connection established\r\n\r\n";
constexpr std::string_view kHealthy = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                      "Content-Length: 15\r\nConnection: close\r\n\r\n"
                                      "{\"status\":\"ok\"}";
constexpr std::string_view kStarting = "HTTP/1.1 503 Service Unavailable\r\n"
                                       "Content-Type: application/json\r\n"
                                       "X-Arizuko-Egress-Reason: starting\r\n"
                                       "Content-Length: 21\r\nConnection: close\r\n\r\n"
                                       "{\"status\":\"starting\"}";

std::string errorText(int error)
{
    return std::strerror(error);
}

} // namespace

void Connection::SocketWatcher::onEvents(uint32_t events)
{
    if (upstream_)
        connection_.onUpstreamEvents(events);
    else
        connection_.onClientEvents(events);
}

Connection::Connection(ProxyServer &server, uint64_t id, posix::UniqueFd client,
                       const SocketAddress &peer)
    : server_(server)
    , id_(id)
    , client_(std::move(client))
    , clientIp_(peer.ipString())
    , clientPermitted_(!server.config().client || server.config().client->sameIp(peer))
    , clientIn_(server.config().maxHeaderBytes + 1)
    , clientOut_(kReplySize)
{
    server_.loop().watch(client_.get(), clientWatcher_);
}

void Connection::setDeadline(std::chrono::milliseconds fromNow)
{
    server_.loop().deadlines().set(id_, server_.loop().now() + fromNow);
}

void Connection::releaseSlot()
{
    if (holdsSlot_) {
        holdsSlot_ = false;
        server_.releaseSlot();
    }
}

void Connection::start()
{
    setDeadline(server_.config().headerTimeout);
    readHead();
}

void Connection::refuseAtLimit()
{
    holdsSlot_ = false;
    refuse(Reason::ConnectionLimit, "already serving --max-connections (" +
                                        std::to_string(server_.config().maxConnections) +
                                        ") connections");
}

void Connection::onClientEvents(uint32_t events)
{
    clientReady_.update(events);
    switch (phase_) {
    case Phase::Asking:
        // What the client sends meanwhile stays in the socket; a reset or a full close ends the
        // wait (a client that only half-closed may still read its answer).
        if ((events & (EPOLLHUP | EPOLLERR)) != 0)
            close();
        break;
    case Phase::ReadingHead:
        readHead();
        break;
    case Phase::Tunnel:
        pumpTunnel();
        break;
    case Phase::Exchange:
        pumpExchange();
        break;
    case Phase::Responding:
        pumpResponding();
        break;
    case Phase::Resolving:
    case Phase::Connecting:
    case Phase::Inspecting:
    case Phase::Closed:
        break;
    }
}

void Connection::onUpstreamEvents(uint32_t events)
{
    upstreamReady_.update(events);
    switch (phase_) {
    case Phase::Connecting:
        finishConnecting();
        break;
    case Phase::Tunnel:
        pumpTunnel();
        break;
    case Phase::Exchange:
        pumpExchange();
        break;
    default:
        break;
    }
}

void Connection::readHead()
{
    const size_t limit = server_.config().maxHeaderBytes;
    while (true) {
        const auto headEnd = findHeadEnd(clientIn_.view());
        if (headEnd ? *headEnd > limit : clientIn_.size() > limit)
            return refuse(Reason::HeadersTooLarge,
                          "request head over --max-header-bytes (" + std::to_string(limit) + ")");
        if (headEnd)
            return handleHead(*headEnd);
        if (!clientReady_.readable)
            return;
        const bool idleBefore = clientIn_.empty();
        const IoOutcome received = receiveInto(client_.get(), clientReady_, clientIn_);
        if (received.kind == IoOutcome::Kind::Closed || received.kind == IoOutcome::Kind::Failed)
            return close();
        if (received.kind == IoOutcome::Kind::WouldBlock) {
            clientIn_.releaseIfEmpty();
            return;
        }
        // The first byte of a head starts its clock (a kept-alive connection waited on the idle
        // timeout until now).
        if (idleBefore)
            setDeadline(server_.config().headerTimeout);
    }
}

void Connection::beginRecord(std::string method, std::string host, uint16_t port, std::string path)
{
    record_ = ExchangeRecord{};
    record_->method = std::move(method);
    record_->host = std::move(host);
    record_->port = port;
    record_->path = std::move(path);
    record_->started = server_.loop().now();
}

void Connection::logDecision(Reason reason, int status)
{
    if (!record_)
        beginRecord({}, {}, 0);
    record_->reason = reason;
    record_->status = status;
    record_->decisionLogged = true;
    server_.log().write(formatDecisionLine(clientIp_, *record_, std::chrono::system_clock::now()));
}

void Connection::handleHead(size_t headLength)
{
    auto parsed = parseRequestHead(clientIn_.view().substr(0, headLength));
    clientIn_.consume(headLength);
    if (parsed && parsed->isHealthCheck())
        return answerHealthCheck();
    if (parsed) {
        // The log keeps the path of plain-HTTP requests, never their query (tokens live there).
        const std::string_view path = parsed->form == TargetForm::Absolute
                                          ? std::string_view(parsed->path)
                                          : std::string_view();
        beginRecord(parsed->method, parsed->host.text, parsed->port,
                    std::string(path.substr(0, path.find_first_of("?#"))));
        server_.config().secrets.maskPlaceholders(record_->path);
    }
    if (!clientPermitted_)
        return refuse(Reason::ClientNotAllowed,
                      "this proxy serves only its turn's client, not " + clientIp_);
    if (!server_.ready())
        return refuse(Reason::Starting, "the allow and deny lists are still loading");
    if (!parsed)
        return refuse(Reason::BadRequest, parsed.error());
    request_ = std::move(parsed.value());
    if (request_.form == TargetForm::Origin)
        return refuse(Reason::BadRequest, "origin-form request; use CONNECT host:port or an "
                                          "absolute http:// URL");
    if (!request_.isConnect()) {
        auto framing = requestBodyFraming(request_.fields);
        if (!framing)
            return refuse(Reason::BadRequest, framing.error());
        requestFraming_ = framing.value();
        if (const SecretBinding *leak = server_.config().secrets.leakInHead(
                request_.host, request_.path, request_.fields)) {
            record_->secret = leak->name;
            return refuse(Reason::PlaceholderLeak, leakDenialDetail(*leak, request_.host.text));
        }
    }
    // A host some rule names or a secret is bound to is inspected: its deny entry still wins,
    // and then its rules, not the allowlist, decide each request.
    inspected_ = server_.authority() != nullptr && server_.config().inspects(request_.host);
    switch (server_.config().policy.decide(request_.host)) {
    case HostVerdict::Denied:
        return refuse(Reason::HostDenied, request_.host.text +
                                              " is on this turn's denylist; only the user can "
                                              "change that, in Arizuko's Network tab");
    case HostVerdict::NotAllowed:
        if (inspected_ || server_.allowedForTurn(request_.host))
            break;
        if (server_.config().ask)
            return askUser();
        return refuse(Reason::HostNotAllowed,
                      request_.host.text + " is not on this turn's allowlist. " + allowHintFor());
    case HostVerdict::Allowed:
        break;
    }
    if (inspected_ && !request_.isConnect() && !judgePlainRequest())
        return;
    // The values of the secrets bound to the host, where their bindings say (plain HTTP: they
    // cross the wire in clear, to a host the user allowed plain HTTP to).
    if (!request_.isConnect())
        server_.config().secrets.substitute(request_.host, request_.fields);
    goUpstream();
}

bool Connection::judgePlainRequest()
{
    auto path = canonicalRulePath(request_.path);
    if (!path) {
        refuse(Reason::BadRequest, path.error());
        return false;
    }
    const RuleJudgement judgement =
        server_.config().rules.judge(request_.method, request_.host, path.value());
    record_->rule = judgement.rule;
    if (judgement.reason == Reason::Allowed)
        return true;
    refuse(judgement.reason,
           ruleDenialDetail(request_.method, request_.host.text, record_->path, judgement));
    return false;
}

std::string Connection::allowHintFor() const
{
    return allowHint(request_.host.text, server_.config().folder);
}

void Connection::askUser()
{
    const auto held = server_.holdForAnswer(id_, clientIp_, *record_);
    if (!held)
        return refuse(Reason::NoAnswer, request_.host.text +
                                            " is not on this turn's allowlist and nobody is left "
                                            "to answer. " +
                                            allowHintFor());
    if (held->kind == PendingQuestions::Held::Kind::OverLimit)
        return refuse(Reason::AskLimit,
                      request_.host.text + " is not on this turn's allowlist and --ask-limit (" +
                          std::to_string(server_.config().askLimit) +
                          ") questions already wait for the user's answer. " + allowHintFor());
    // The question's own deadline (--ask-timeout) bounds the wait.
    record_->asked = true;
    question_ = held->question;
    server_.loop().deadlines().remove(id_);
    phase_ = Phase::Asking;
}

void Connection::onAnswer(uint64_t question, Answer answer, Reason denial, const std::string &why)
{
    if (phase_ != Phase::Asking || question != question_)
        return;
    record_->answer = answer;
    if (answer == Answer::Deny)
        return refuse(denial, request_.host.text + " " + why + ". " + allowHintFor());
    // An allowed host still passes every other check: the denylist, then resolution and the
    // addresses it resolves to.
    if (server_.config().policy.denyList().covers(request_.host))
        return refuse(Reason::HostDenied, request_.host.text + " is on this turn's denylist");
    goUpstream();
}

void Connection::goUpstream()
{
    addresses_.clear();
    nextAddress_ = 0;
    if (request_.host.isIpLiteral) {
        addresses_.push_back(*SocketAddress::fromIpLiteral(request_.host.text, request_.port));
        return checkAddressesAndConnect();
    }
    phase_ = Phase::Resolving;
    setDeadline(server_.config().connectTimeout);
    server_.resolver().lookUp(id_, request_.host.text, request_.port);
}

void Connection::onResolved(Resolver::Answer answer)
{
    if (phase_ != Phase::Resolving)
        return;
    if (answer.addresses.empty())
        return refuse(Reason::ResolveFailed, request_.host.text + ": " + answer.error);
    addresses_ = std::move(answer.addresses);
    checkAddressesAndConnect();
}

void Connection::checkAddressesAndConnect()
{
    const Config &config = server_.config();
    if (config.denyPrivate) {
        // One refused answer refuses the name: a mix of public and private answers is hostile.
        for (const SocketAddress &address : addresses_) {
            const AddressClass addressClass = classifyAddress(address);
            if (isRefusedClass(addressClass, config.allowLoopback))
                return refuse(Reason::PrivateAddress,
                              request_.host.text + " resolves to " + address.ipString() + " (" +
                                  std::string(addressClassName(addressClass)) +
                                  "); a turn never reaches private, loopback, link-local or "
                                  "metadata addresses");
        }
    }
    connectNext();
}

void Connection::connectNext()
{
    while (nextAddress_ < addresses_.size()) {
        const SocketAddress &address = addresses_[nextAddress_++];
        posix::UniqueFd socket(
            ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (socket && (::connect(socket.get(), address.get(), address.length()) == 0 ||
                       errno == EINPROGRESS)) {
            disableNagle(socket.get());
            upstream_ = std::move(socket);
            upstreamReady_ = {};
            server_.loop().watch(upstream_.get(), upstreamWatcher_);
            phase_ = Phase::Connecting;
            setDeadline(server_.config().connectTimeout);
            // A loopback or nearby upstream is often connected by now; checking saves a wake-up.
            return finishConnecting();
        }
        lastConnectError_ = address.toString() + ": " + errorText(errno);
        lastConnectTimedOut_ = false;
    }
    refuse(lastConnectTimedOut_ ? Reason::ConnectTimeout : Reason::ConnectFailed,
           lastConnectError_);
}

void Connection::finishConnecting()
{
    const SocketAddress &address = addresses_[nextAddress_ - 1];
    int error = 0;
    socklen_t length = sizeof(error);
    getsockopt(upstream_.get(), SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
        lastConnectError_ = address.toString() + ": " + errorText(error);
        lastConnectTimedOut_ = false;
        upstream_.reset();
        return connectNext();
    }
    // An event may be left over from an earlier socket; only a known peer means connected.
    sockaddr_storage peer{};
    socklen_t peerLength = sizeof(peer);
    if (getpeername(upstream_.get(), reinterpret_cast<sockaddr *>(&peer), &peerLength) != 0)
        return;
    startRelay();
}

void Connection::startInspection()
{
    record_->inspected = true;
    // What made the host inspected: the first rule naming it, else the secret bound to it.
    const Config &config = server_.config();
    if (const RequestRule *rule = config.rules.naming(request_.host))
        record_->rule = rule->text;
    else if (const SecretBinding *secret = config.secrets.boundTo(request_.host))
        record_->rule = "secret " + secret->name;
    logDecision(Reason::Allowed, 200);
    server_.loop().unwatch(client_.get());
    server_.loop().unwatch(upstream_.get());
    server_.loop().deadlines().remove(id_);
    InspectTarget target{request_.host, request_.port, addresses_, clientIp_};
    std::string early(clientIn_.view());
    clientIn_.consume(clientIn_.size());
    clientIn_.releaseIfEmpty();
    inspection_ = std::make_unique<InspectSession>(
        server_.config(), server_.log(), *server_.authority(), server_.scrubber(),
        std::move(target), client_.get(), std::move(upstream_), std::move(early),
        [&server = server_, id = id_] { server.inspectionFinished(id); });
    phase_ = Phase::Inspecting;
    inspection_->start();
}

void Connection::onInspectionDone()
{
    if (phase_ == Phase::Inspecting)
        close();
}

void Connection::startRelay()
{
    if (request_.isConnect() && inspected_)
        return startInspection();
    upstreamReady_ = {true, true};
    setDeadline(server_.config().idleTimeout);
    if (request_.isConnect()) {
        tunnel_ = Tunnel::create(client_.get(), clientReady_, upstream_.get(), upstreamReady_,
                                 std::string(clientIn_.view()));
        if (!tunnel_)
            return refuse(Reason::ConnectFailed, "no pipe for the tunnel: " + errorText(errno));
        clientIn_.consume(clientIn_.size());
        clientIn_.releaseIfEmpty();
        clientOut_.append(kTunnelEstablished);
        logDecision(Reason::Allowed, 200);
        phase_ = Phase::Tunnel;
        return pumpTunnel();
    }
    exchange_ = std::make_unique<HttpExchange>(
        HttpExchange::Socket{client_.get(), clientReady_},
        HttpExchange::Socket{upstream_.get(), upstreamReady_}, request_, requestFraming_, clientIn_,
        server_.config().maxHeaderBytes,
        HttpExchange::Secrets{&server_.config().secrets,
                              inspected_ ? &server_.scrubber() : nullptr});
    phase_ = Phase::Exchange;
    pumpExchange();
}

void Connection::pumpTunnel()
{
    if (!clientOut_.empty()) {
        // The 200 goes out before any tunnelled byte.
        if (sendFrom(client_.get(), clientReady_, clientOut_).kind == IoOutcome::Kind::Failed)
            return close();
        if (!clientOut_.empty())
            return;
        clientOut_.releaseIfEmpty();
    }
    switch (tunnel_->pump()) {
    case Tunnel::Progress::Running:
        return setDeadline(server_.config().idleTimeout);
    case Tunnel::Progress::Finished:
    case Tunnel::Progress::Failed:
        return close();
    }
}

void Connection::pumpExchange()
{
    const HttpExchange::Progress progress = exchange_->pump();
    if (!record_->decisionLogged && exchange_->responseStatus() != 0)
        logDecision(Reason::Allowed, exchange_->responseStatus());
    switch (progress) {
    case HttpExchange::Progress::Running:
        return setDeadline(server_.config().idleTimeout);
    case HttpExchange::Progress::Complete:
        return endExchange(exchange_->keepAlive() && !server_.draining());
    case HttpExchange::Progress::Failed:
        if (const SecretBinding *leak = exchange_->leak()) {
            record_->secret = leak->name;
            return refuse(Reason::PlaceholderLeak, leakDenialDetail(*leak, request_.host.text));
        }
        if (exchange_->upstreamFailed() && exchange_->responseStatus() == 0)
            return refuse(Reason::BadResponse, request_.host.text + ": " + exchange_->failure());
        return close();
    }
}

void Connection::collectRelayBytes()
{
    if (!record_)
        return;
    if (inspection_) {
        record_->bytesUp = inspection_->bytesUp();
        record_->bytesDown = inspection_->bytesDown();
    } else if (tunnel_) {
        record_->bytesUp = tunnel_->bytesUp();
        record_->bytesDown = tunnel_->bytesDown();
    } else if (exchange_) {
        record_->bytesUp = exchange_->bytesUp();
        record_->bytesDown = exchange_->bytesDown();
    }
}

void Connection::endExchange(bool keepAlive)
{
    if (!keepAlive)
        return close();
    collectRelayBytes();
    server_.log().write(formatCloseLine(clientIp_, *record_, std::chrono::system_clock::now(),
                                        server_.loop().now() - record_->started));
    record_.reset();
    exchange_.reset();
    upstream_.reset();
    phase_ = Phase::ReadingHead;
    setDeadline(server_.config().idleTimeout);
    if (!clientIn_.empty())
        setDeadline(server_.config().headerTimeout);
    readHead();
}

void Connection::refuse(Reason reason, const std::string &detail)
{
    collectRelayBytes();
    logDecision(reason, reasonStatus(reason));
    tunnel_.reset();
    exchange_.reset();
    upstream_.reset();
    server_.loop().deadlines().set(id_, server_.loop().now() + kLingerTime);
    releaseSlot();
    clientOut_.append(buildErrorResponse(reason, detail, record_ ? record_->host : std::string()));
    phase_ = Phase::Responding;
    pumpResponding();
}

void Connection::answerHealthCheck()
{
    server_.loop().deadlines().set(id_, server_.loop().now() + kLingerTime);
    releaseSlot();
    clientOut_.append(server_.ready() ? kHealthy : kStarting);
    phase_ = Phase::Responding;
    pumpResponding();
}

void Connection::pumpResponding()
{
    if (!clientOut_.empty()) {
        if (sendFrom(client_.get(), clientReady_, clientOut_).kind == IoOutcome::Kind::Failed)
            return close();
        if (!clientOut_.empty())
            return;
        clientOut_.releaseIfEmpty();
        clientIn_.consume(clientIn_.size());
        clientIn_.releaseIfEmpty();
        ::shutdown(client_.get(), SHUT_WR);
    }
    // Lingering close: drop what the client still sends until it closes its side.
    std::array<char, 4096> discard;
    while (clientReady_.readable) {
        const IoOutcome received = receive(client_.get(), clientReady_, discard);
        if (received.kind == IoOutcome::Kind::Closed || received.kind == IoOutcome::Kind::Failed)
            return close();
        lingerDiscarded_ += received.bytes;
        if (lingerDiscarded_ > kLingerBytes)
            return close();
    }
}

void Connection::onDeadline()
{
    switch (phase_) {
    case Phase::Asking:
        return; // the question's deadline, not the connection's, ends the wait
    case Phase::Inspecting:
        return; // the inspection's thread keeps its own timeouts
    case Phase::ReadingHead:
        if (clientIn_.empty())
            return close();
        return refuse(Reason::HeaderTimeout, "request head not complete within --header-timeout");
    case Phase::Resolving:
        return refuse(Reason::ResolveFailed,
                      request_.host.text + ": no answer within --connect-timeout");
    case Phase::Connecting:
        lastConnectError_ =
            addresses_[nextAddress_ - 1].toString() + ": no answer within --connect-timeout";
        lastConnectTimedOut_ = true;
        upstream_.reset();
        return connectNext();
    case Phase::Tunnel:
    case Phase::Exchange:
    case Phase::Responding:
        return close();
    case Phase::Closed:
        return;
    }
}

void Connection::beginDrain()
{
    if (phase_ == Phase::Inspecting)
        inspection_->stop();
    if (phase_ == Phase::ReadingHead && clientIn_.empty())
        close();
}

void Connection::close()
{
    if (phase_ == Phase::Closed)
        return;
    if (inspection_) {
        // Its thread must be gone before the client's descriptor is closed and reused.
        inspection_->abort();
        inspection_->join();
    }
    collectRelayBytes();
    if (phase_ == Phase::Asking)
        server_.stopWaiting(id_, question_);
    if (record_) {
        // A client that went away before any status: allowed unless it was still waiting for
        // the user, whose answer never came.
        if (!record_->decisionLogged)
            logDecision(phase_ == Phase::Asking ? Reason::NoAnswer : Reason::Allowed, 0);
        server_.log().write(formatCloseLine(clientIp_, *record_, std::chrono::system_clock::now(),
                                            server_.loop().now() - record_->started));
        record_.reset();
    }
    phase_ = Phase::Closed;
    tunnel_.reset();
    exchange_.reset();
    upstream_.reset();
    client_.reset();
    server_.loop().deadlines().remove(id_);
    releaseSlot();
    server_.retire(id_);
}

} // namespace arizuko::egress
