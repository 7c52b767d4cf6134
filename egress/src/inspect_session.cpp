#include "inspect_session.hpp"

#include "forward_head.hpp"
#include "json_line.hpp"
#include "request_head.hpp"
#include "request_rules.hpp"
#include "response_head.hpp"
#include "socket_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>

namespace arizuko::egress {
namespace {

constexpr size_t kSlice = 64 * 1024;
// A denied request's body is read and dropped up to this much so the connection can go on; a
// larger one closes it.
constexpr uint64_t kDiscardLimit = 1 << 20;
// How much of a request body is searched for placeholders before any of it is sent.
constexpr size_t kLeakWindow = 64 * 1024;
// How long the upstream's 100 Continue is awaited before the body is sent anyway (curl's default).
constexpr std::chrono::milliseconds kContinueWait{1000};
constexpr std::string_view kTunnelEstablished = "HTTP/1.1 200 Connection established\r\n\r\n";

using Clock = std::chrono::steady_clock;

void setBlocking(int fd, std::chrono::milliseconds timeout)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    timeval limit{};
    limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    limit.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
}

// The 200 before the handshake, on the (now blocking) client socket.
bool sendEstablished(int fd)
{
    ByteBuffer reply(kTunnelEstablished.size());
    reply.append(kTunnelEstablished);
    SocketReadiness readiness{true, true};
    return sendFrom(fd, readiness, reply).kind != IoOutcome::Kind::Failed && reply.empty();
}

// Whether `fd` has input within `timeout`; false on the stop descriptor or the timeout.
bool waitReadable(int fd, int stopFd, std::chrono::milliseconds timeout)
{
    pollfd watched[2] = {{fd, POLLIN, 0}, {stopFd, POLLIN, 0}};
    const auto deadline = Clock::now() + timeout;
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return false;
        const int ready = ::poll(watched, 2, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0 || watched[1].revents != 0)
            return false;
        return true;
    }
}

// Whether `ssl` holds input its socket no longer shows: decrypted or undecrypted records, or bytes
// in the buffering BIO that carried the client's early bytes.
bool holdsInput(SSL *ssl)
{
    return SSL_has_pending(ssl) == 1 || BIO_pending(SSL_get_rbio(ssl)) > 0;
}

std::string authorityOf(const HostName &host, uint16_t port)
{
    const std::string name = host.isIpLiteral && host.text.find(':') != std::string::npos
                                 ? "[" + host.text + "]"
                                 : host.text;
    return port == 443 ? name : name + ":" + std::to_string(port);
}

} // namespace

InspectSession::InspectSession(const Config &config, const DecisionLog &log,
                               TurnAuthority &authority, const ValueScrubber &scrubber,
                               InspectTarget target, int client, posix::UniqueFd upstream,
                               std::string early, std::function<void()> finished)
    : config_(config)
    , log_(log)
    , authority_(authority)
    , scrubber_(scrubber)
    , target_(std::move(target))
    , authorityText_(authorityOf(target_.host, target_.port))
    , client_(client)
    , upstream_(std::move(upstream))
    , early_(std::move(early))
    , finished_(std::move(finished))
{}

InspectSession::~InspectSession()
{
    abort();
    join();
}

void InspectSession::start()
{
    thread_ = std::thread([this] {
        run();
        finished_();
    });
}

void InspectSession::stop()
{
    stopping_ = true;
    stopRequested_.notify();
}

void InspectSession::abort()
{
    aborted_ = true;
    stop();
    ::shutdown(client_, SHUT_RDWR);
    const std::lock_guard lock(upstreamMutex_);
    if (upstream_)
        ::shutdown(upstream_.get(), SHUT_RDWR);
}

void InspectSession::join()
{
    if (thread_.joinable())
        thread_.join();
}

void InspectSession::run()
{
    setBlocking(client_, config_.headerTimeout);
    if (!sendEstablished(client_))
        return;
    auto session = authority_.serverSession(target_.host);
    if (!session) {
        log_.write(JsonLine(std::chrono::system_clock::now(), "warning")
                       .add("message", session.error())
                       .finish());
        return;
    }
    clientTls_ = std::move(session.value());
    if (early_.empty()) {
        SSL_set_fd(clientTls_.get(), client_);
    } else {
        // Bytes the client sent right behind its CONNECT are the start of its handshake.
        BIO *buffered = BIO_new(BIO_f_buffer());
        BIO_push(buffered, BIO_new_socket(client_, BIO_NOCLOSE));
        BIO_set_buffer_read_data(buffered, early_.data(), static_cast<long>(early_.size()));
        SSL_set0_rbio(clientTls_.get(), buffered);
        SSL_set0_wbio(clientTls_.get(), BIO_new_socket(client_, BIO_NOCLOSE));
        early_.clear();
    }
    // A guest that does not trust the turn's CA ends here; its CONNECT's close line tells.
    if (SSL_accept(clientTls_.get()) != 1) {
        ERR_clear_error();
        return;
    }
    setBlocking(client_, config_.idleTimeout);
    scratch_.resize(kSlice);
    while (!stopping_ && serveOne()) {
    }
    if (!aborted_)
        SSL_shutdown(clientTls_.get());
    ERR_clear_error();
    dropUpstream();
}

void InspectSession::logDecision(ExchangeRecord &record, Reason reason, int status)
{
    record.reason = reason;
    record.status = status;
    record.decisionLogged = true;
    log_.write(formatDecisionLine(target_.clientIp, record, std::chrono::system_clock::now()));
}

void InspectSession::logClose(const ExchangeRecord &record)
{
    log_.write(formatCloseLine(target_.clientIp, record, std::chrono::system_clock::now(),
                               Clock::now() - record.started));
}

bool InspectSession::refuse(ExchangeRecord &record, Reason reason, const std::string &detail,
                            bool keepAlive)
{
    logDecision(record, reason, reasonStatus(reason));
    const bool sent = writeAll(clientTls_.get(),
                               buildErrorResponse(reason, detail, target_.host.text, keepAlive));
    logClose(record);
    return sent && keepAlive;
}

bool InspectSession::readInto(SSL *ssl, std::string &buffered)
{
    const int got = SSL_read(ssl, scratch_.data(), static_cast<int>(scratch_.size()));
    if (got <= 0) {
        ERR_clear_error();
        return false;
    }
    buffered.append(scratch_.data(), static_cast<size_t>(got));
    return true;
}

bool InspectSession::writeAll(SSL *ssl, std::string_view bytes)
{
    if (bytes.empty())
        return true;
    size_t written = 0;
    const bool ok = SSL_write_ex(ssl, bytes.data(), bytes.size(), &written) == 1;
    if (!ok)
        ERR_clear_error();
    return ok;
}

InspectSession::Read InspectSession::readHead(SSL *ssl, int fd, std::string &buffered,
                                              size_t &headLength, bool idle)
{
    const size_t limit = config_.maxHeaderBytes;
    const auto started = Clock::now();
    while (true) {
        if (const auto end = findHeadEnd(buffered)) {
            if (*end > limit)
                return Read::TooLarge;
            headLength = *end;
            return Read::Got;
        }
        if (buffered.size() > limit)
            return Read::TooLarge;
        if (fd >= 0 && !holdsInput(ssl)) {
            // Between requests the connection may idle; a started head must complete in time.
            const bool waiting = idle && buffered.empty();
            const auto budget = waiting ? config_.idleTimeout
                                        : config_.headerTimeout -
                                              std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  Clock::now() - started);
            if (!waitReadable(fd, stopRequested_.fd(), budget))
                return waiting || stopping_ ? Read::Closed : Read::TimedOut;
        }
        if (!readInto(ssl, buffered))
            return Read::Closed;
    }
}

bool InspectSession::relayBody(SSL *from, std::string &buffered, SSL *to, BodyReader &body,
                               uint64_t &counted, uint64_t limit, BodyScrubber *scrubber)
{
    uint64_t moved = 0;
    std::string scrubbed;
    // With a scrubber, what goes on is what it gives back (it keeps the end of the data back
    // until more comes or the body ends); the count stays the body's.
    const auto send = [&](std::string_view bytes, bool ends) {
        if (to == nullptr)
            return true;
        if (scrubber == nullptr)
            return writeAll(to, bytes);
        scrubbed.clear();
        scrubber->feed(bytes, scrubbed);
        if (ends)
            scrubber->finish(scrubbed);
        return writeAll(to, scrubbed);
    };
    while (!body.done()) {
        if (buffered.empty()) {
            if (!readInto(from, buffered)) {
                if (!body.endsAtClose())
                    return false;
                body = BodyReader(); // a close-delimited body ended with its connection
                return send({}, true);
            }
        }
        const size_t bodyBytes = body.feed(buffered);
        if (body.failed())
            return false;
        moved += bodyBytes;
        if (moved > limit)
            return false;
        if (!send(std::string_view(buffered).substr(0, bodyBytes), body.done()))
            return false;
        counted += bodyBytes;
        buffered.erase(0, bodyBytes);
    }
    return true;
}

std::optional<std::string_view> InspectSession::bodyStart(const BodyFraming &framing)
{
    while (true) {
        BodyReader probe(framing);
        const size_t bodyBytes = probe.feed(clientIn_);
        if (probe.failed())
            return std::nullopt;
        if (probe.done() || bodyBytes >= kLeakWindow)
            return std::string_view(clientIn_).substr(0, std::min(bodyBytes, kLeakWindow));
        if (!readInto(clientTls_.get(), clientIn_))
            return std::nullopt;
    }
}

bool InspectSession::refuseRequest(ExchangeRecord &record, const RequestHead &request,
                                   const BodyFraming &framing, Reason reason,
                                   const std::string &detail)
{
    BodyReader body(framing);
    uint64_t dropped = 0;
    const bool drained =
        relayBody(clientTls_.get(), clientIn_, nullptr, body, dropped, kDiscardLimit);
    return refuse(record, reason, detail, drained && clientWantsKeepAlive(request));
}

void InspectSession::setUpstream(posix::UniqueFd socket)
{
    const std::lock_guard lock(upstreamMutex_);
    upstream_ = std::move(socket);
    if (aborted_ && upstream_)
        ::shutdown(upstream_.get(), SHUT_RDWR);
}

void InspectSession::dropUpstream()
{
    if (upstreamTls_ && !aborted_)
        SSL_shutdown(upstreamTls_.get());
    ERR_clear_error();
    upstreamTls_.reset();
    setUpstream({});
}

posix::UniqueFd InspectSession::dial(std::string &error)
{
    for (const SocketAddress &address : target_.addresses) {
        posix::UniqueFd socket(
            ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!socket)
            continue;
        if (::connect(socket.get(), address.get(), address.length()) != 0 && errno != EINPROGRESS) {
            error = address.toString() + ": " + std::strerror(errno);
            continue;
        }
        pollfd watched{socket.get(), POLLOUT, 0};
        int failure = 0;
        socklen_t length = sizeof(failure);
        if (::poll(&watched, 1, static_cast<int>(config_.connectTimeout.count())) != 1) {
            error = address.toString() + ": no answer within --connect-timeout";
            continue;
        }
        getsockopt(socket.get(), SOL_SOCKET, SO_ERROR, &failure, &length);
        if (failure != 0) {
            error = address.toString() + ": " + std::strerror(failure);
            continue;
        }
        disableNagle(socket.get());
        return socket;
    }
    return {};
}

bool InspectSession::ensureUpstream(ExchangeRecord &record)
{
    if (upstreamTls_)
        return true;
    if (!upstream_ || upstreamUsed_) {
        std::string error = "no address";
        posix::UniqueFd socket = dial(error);
        if (!socket)
            return refuse(record, Reason::ConnectFailed, error, false);
        setUpstream(std::move(socket));
    }
    upstreamUsed_ = true;
    setBlocking(upstream_.get(), config_.connectTimeout);
    auto session = authority_.upstreamSession(target_.host);
    if (!session)
        return refuse(record, Reason::ConnectFailed, session.error(), false);
    SSL_set_fd(session->get(), upstream_.get());
    if (SSL_connect(session->get()) != 1) {
        const long verified = SSL_get_verify_result(session->get());
        ERR_clear_error();
        dropUpstream();
        if (verified != X509_V_OK)
            return refuse(record, Reason::UpstreamNotTrusted,
                          target_.host.text + " presented a certificate that does not verify: " +
                              X509_verify_cert_error_string(verified),
                          false);
        return refuse(record, Reason::ConnectFailed,
                      target_.host.text + ": the TLS handshake with the upstream failed", false);
    }
    setBlocking(upstream_.get(), config_.idleTimeout);
    upstreamTls_ = std::move(session.value());
    return true;
}

bool InspectSession::serveOne()
{
    size_t headLength = 0;
    switch (readHead(clientTls_.get(), client_, clientIn_, headLength, true)) {
    case Read::Got:
        break;
    case Read::Closed:
        return false;
    case Read::TimedOut: {
        ExchangeRecord record;
        record.started = Clock::now();
        return refuse(record, Reason::HeaderTimeout,
                      "request head not complete within --header-timeout", false);
    }
    case Read::TooLarge: {
        ExchangeRecord record;
        record.started = Clock::now();
        return refuse(record, Reason::HeadersTooLarge,
                      "request head over --max-header-bytes (" +
                          std::to_string(config_.maxHeaderBytes) + ")",
                      false);
    }
    }
    auto parsed = parseRequestHead(std::string_view(clientIn_).substr(0, headLength));
    clientIn_.erase(0, headLength);
    ExchangeRecord record;
    record.started = Clock::now();
    if (!parsed)
        return refuse(record, Reason::BadRequest, parsed.error(), false);
    RequestHead &request = parsed.value();
    record.method = request.method;
    record.host = target_.host.text;
    record.port = target_.port;
    // Inside the tunnel the target is the origin form; the log never keeps the query.
    record.path = request.path.substr(0, request.path.find_first_of("?#"));
    config_.secrets.maskPlaceholders(record.path);
    if (request.form != TargetForm::Origin)
        return refuse(record, Reason::BadRequest,
                      "inside an inspected connection a request names a path, not a host", false);
    auto framing = requestBodyFraming(request.fields);
    if (!framing)
        return refuse(record, Reason::BadRequest, framing.error(), false);
    const SecretBindings &secrets = config_.secrets;
    if (const SecretBinding *leak =
            secrets.leakInHead(target_.host, request.path, request.fields)) {
        record.secret = leak->name;
        return refuseRequest(record, request, framing.value(), Reason::PlaceholderLeak,
                             leakDenialDetail(*leak, target_.host.text));
    }
    auto path = canonicalRulePath(request.path);
    if (!path)
        return refuse(record, Reason::BadRequest, path.error(), false);
    const RuleJudgement judgement = config_.rules.judge(request.method, target_.host, path.value());
    record.rule = judgement.rule;
    if (judgement.reason != Reason::Allowed)
        return refuseRequest(
            record, request, framing.value(), judgement.reason,
            ruleDenialDetail(request.method, target_.host.text, record.path, judgement));
    // Nothing of a request goes upstream before the start of its body is searched too.
    if (framing->kind != BodyFraming::Kind::None && !secrets.empty() &&
        !secrets.allBoundTo(target_.host)) {
        const auto start = bodyStart(framing.value());
        if (!start)
            return refuse(record, Reason::BadRequest,
                          "the request body ended early or is malformed", false);
        if (const SecretBinding *leak = secrets.leakInBody(target_.host, *start)) {
            record.secret = leak->name;
            return refuseRequest(record, request, framing.value(), Reason::PlaceholderLeak,
                                 leakDenialDetail(*leak, target_.host.text));
        }
    }
    secrets.substitute(target_.host, request.fields);
    // A kept upstream connection may have been closed by the upstream meanwhile; a request
    // without a body is then sent once more on a new one (nothing of it can have been acted on).
    const bool mayRetry = upstreamTls_ && framing->kind == BodyFraming::Kind::None;
    if (!ensureUpstream(record))
        return false;

    uint64_t up = 0;
    uint64_t down = 0;
    const auto finish = [&](bool goOn) {
        record.bytesUp = up;
        record.bytesDown = down;
        bytesUp_ += up;
        bytesDown_ += down;
        if (!record.decisionLogged)
            logDecision(record, Reason::Allowed, 0);
        logClose(record);
        return goOn;
    };
    request.authority = authorityText_;
    const std::string head = buildUpstreamRequestHead(request, false);
    const auto sendHead = [&] {
        if (!writeAll(upstreamTls_.get(), head))
            return false;
        up += head.size();
        return true;
    };
    bool retried = !mayRetry;
    const std::string closed = target_.host.text + ": the upstream closed the connection";
    if (!sendHead()) {
        dropUpstream();
        if (retried)
            return refuse(record, Reason::BadResponse, closed, false);
        retried = true;
        if (!ensureUpstream(record))
            return false;
        if (!sendHead())
            return refuse(record, Reason::BadResponse, closed, false);
    }
    // A client that expects 100 Continue sends its body only after it (or its own timeout): the
    // upstream's answer to the head is awaited briefly, as the client would.
    bool bodySent = false;
    bool awaitedContinue = framing->kind == BodyFraming::Kind::None ||
                           !fieldListsToken(request.fields, "Expect", "100-continue");
    std::string fromUpstream;
    const bool clientIsHttp10 = request.minorVersion == 0;
    while (true) {
        if (!awaitedContinue) {
            awaitedContinue = true;
            if (!holdsInput(upstreamTls_.get()) &&
                !waitReadable(upstream_.get(), stopRequested_.fd(), kContinueWait))
                continue;
        } else if (!bodySent) {
            BodyReader requestBody(framing.value());
            if (!relayBody(clientTls_.get(), clientIn_, upstreamTls_.get(), requestBody, up,
                           UINT64_MAX))
                return finish(false);
            bodySent = true;
        }
        size_t responseHeadLength = 0;
        const Read read = readHead(upstreamTls_.get(), -1, fromUpstream, responseHeadLength, false);
        if (read == Read::Closed && fromUpstream.empty() && !retried) {
            retried = true;
            dropUpstream();
            if (!ensureUpstream(record))
                return false;
            if (!sendHead())
                return refuse(record, Reason::BadResponse, closed, false);
            continue;
        }
        if (read != Read::Got) {
            dropUpstream();
            return refuse(record, Reason::BadResponse,
                          target_.host.text +
                              (read == Read::TooLarge
                                   ? ": response head larger than --max-header-bytes"
                                   : ": the upstream closed before a complete response head"),
                          false);
        }
        auto response =
            parseResponseHead(std::string_view(fromUpstream).substr(0, responseHeadLength));
        fromUpstream.erase(0, responseHeadLength);
        if (!response || response->status == 101) {
            dropUpstream();
            return refuse(record, Reason::BadResponse,
                          target_.host.text + ": " +
                              (response ? "the upstream switched protocols"
                                        : "malformed response head: " + response.error()),
                          false);
        }
        if (response->status < 200) {
            if (!clientIsHttp10) {
                const std::string interim = buildClientResponseHead(response.value(), true, false);
                if (!writeAll(clientTls_.get(), interim))
                    return finish(false);
                down += interim.size();
            }
            continue;
        }
        auto responseFraming =
            responseBodyFraming(request.method, response->status, response->fields);
        if (!responseFraming) {
            dropUpstream();
            return refuse(record, Reason::BadResponse,
                          target_.host.text + ": response framing: " + responseFraming.error(),
                          false);
        }
        BodyReader responseBody(responseFraming.value());
        // A final answer before the body (a 417, a 413) leaves the body unread: both
        // connections end with this exchange.
        const bool keepAlive =
            clientWantsKeepAlive(request) && !responseBody.endsAtClose() && bodySent;
        const bool upstreamReusable = response->minorVersion == 1 && !responseBody.endsAtClose() &&
                                      !fieldListsToken(response->fields, "Connection", "close") &&
                                      bodySent;
        scrubber_.scrubFields(response->fields);
        scrubber_.scrub(response->reasonPhrase);
        const std::string clientHead =
            buildClientResponseHead(response.value(), keepAlive, clientIsHttp10);
        logDecision(record, Reason::Allowed, response->status);
        if (!writeAll(clientTls_.get(), clientHead))
            return finish(false);
        down += clientHead.size();
        BodyScrubber scrubbing(scrubber_, responseFraming.value());
        if (!relayBody(upstreamTls_.get(), fromUpstream, clientTls_.get(), responseBody, down,
                       UINT64_MAX, scrubber_.empty() ? nullptr : &scrubbing)) {
            dropUpstream();
            return finish(false);
        }
        // Bytes past the response's end are the upstream's error: its connection is not reused.
        if (!upstreamReusable || !fromUpstream.empty())
            dropUpstream();
        return finish(keepAlive);
    }
}

} // namespace arizuko::egress
