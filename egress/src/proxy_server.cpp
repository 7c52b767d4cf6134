#include "proxy_server.hpp"

#include "json_line.hpp"
#include "socket_io.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::egress {
namespace {

// The drain deadline shares the deadline queue with connections, whose ids start at 1, and with
// the questions of --ask, whose ids are marked by the top bit (connection ids never reach it).
constexpr uint64_t kDrainDeadlineId = 0;
constexpr uint64_t kQuestionDeadline = uint64_t{1} << 63;
// An answer line is some tens of bytes; a longer one is an error, dropped up to its newline.
constexpr size_t kMaxAnswerLine = 4096;

std::string secondsText(std::chrono::milliseconds duration)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%g s", static_cast<double>(duration.count()) / 1000);
    return text;
}

std::string systemError(std::string_view what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

ProxyServer::ProxyServer(Config config, std::unique_ptr<TurnAuthority> authority)
    : config_(std::move(config))
    , authority_(std::move(authority))
    , scrubber_(config_.secrets.scrubForms())
    , questions_(config_.askLimit)
{
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    signals_.reset(signalfd(-1, &stopSignals, SFD_NONBLOCK | SFD_CLOEXEC));
    loop_.watch(signals_.get(), signalWatcher_, EventLoop::Interest::Read);
    loop_.watch(resolver_.readyFd(), resolverWatcher_, EventLoop::Interest::Read);
    loop_.watch(inspectionsDone_.fd(), inspectionWatcher_, EventLoop::Interest::Read);
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
    if (config_.ask)
        watchAnswers();
    if (config_.allowFile || config_.denyFile || config_.ruleFile) {
        loader_ =
            std::make_unique<ListLoader>(config_.allowFile, config_.denyFile, config_.ruleFile);
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
    config_.rules.merge(std::move(lists->rules));
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
    JsonLine ready(now, "ready");
    ready.add("addr", bound_.toString())
        .addNumber("allow", static_cast<int64_t>(policy.allowList().size()))
        .addNumber("deny", static_cast<int64_t>(policy.denyList().size()))
        .addFlag("allow_all", policy.allowAll())
        .addFlag("deny_private", config_.denyPrivate)
        .addFlag("allow_loopback", config_.allowLoopback)
        .add("client", config_.client ? config_.client->ipString() : "any")
        .addFlag("ask", config_.ask)
        .addNumber("rules", static_cast<int64_t>(config_.rules.size()));
    // Only with secrets, so a proxy without them logs what it always did.
    if (!config_.secrets.empty())
        ready.addNumber("secrets", static_cast<int64_t>(config_.secrets.size()));
    log_.write(ready.finish());
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

void ProxyServer::inspectionFinished(uint64_t id)
{
    {
        const std::lock_guard lock(finishedMutex_);
        finishedInspections_.push_back(id);
    }
    inspectionsDone_.notify();
}

void ProxyServer::deliverInspectionsDone()
{
    inspectionsDone_.drain();
    std::vector<uint64_t> finished;
    {
        const std::lock_guard lock(finishedMutex_);
        finished.swap(finishedInspections_);
    }
    for (const uint64_t id : finished) {
        const auto found = connections_.find(id);
        if (found != connections_.end())
            found->second->onInspectionDone();
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
        if (answersOpen_)
            closeAnswers("the proxy is stopping");
    }
}

void ProxyServer::onDeadline(uint64_t id)
{
    if (id == kDrainDeadlineId) {
        forEachConnection([](Connection &connection) { connection.close(); });
        stopped_ = true;
        return;
    }
    if ((id & kQuestionDeadline) != 0) {
        if (auto question = questions_.take(id & ~kQuestionDeadline))
            settle(std::move(*question), Answer::Deny, Reason::NoAnswer,
                   "got no answer from the user within --ask-timeout (" +
                       secondsText(config_.askTimeout) + ")");
        return;
    }
    const auto found = connections_.find(id);
    if (found != connections_.end())
        found->second->onDeadline();
}

void ProxyServer::warn(std::string message)
{
    log_.write(
        JsonLine(std::chrono::system_clock::now(), "warning").add("message", message).finish());
}

void ProxyServer::watchAnswers()
{
    // Only a pipe or a socket can be watched; anything else (a terminal, /dev/null, a file) is no
    // channel the engine holds, so nobody can answer.
    struct stat status
    {
    };
    if (fstat(STDIN_FILENO, &status) != 0 ||
        !(S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode))) {
        warn("--ask: standard input is not a pipe; every host on no list is denied (no-answer)");
        return;
    }
    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    loop_.watch(STDIN_FILENO, answerWatcher_, EventLoop::Interest::Read);
    answersOpen_ = true;
}

void ProxyServer::readAnswers()
{
    std::array<char, 4096> chunk;
    while (answersOpen_) {
        const ssize_t got = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (got <= 0)
            return closeAnswers("standard input closed");
        answerInput_.append(chunk.data(), static_cast<size_t>(got));
        size_t start = 0;
        for (size_t end = answerInput_.find('\n'); end != std::string::npos;
             end = answerInput_.find('\n', start)) {
            if (!skippingLongLine_)
                handleAnswerLine(std::string_view(answerInput_).substr(start, end - start));
            skippingLongLine_ = false;
            start = end + 1;
        }
        answerInput_.erase(0, start);
        if (answerInput_.size() > kMaxAnswerLine) {
            if (!skippingLongLine_)
                warn("ignored an answer line over " + std::to_string(kMaxAnswerLine) + " bytes");
            skippingLongLine_ = true;
            answerInput_.clear();
        }
    }
}

void ProxyServer::handleAnswerLine(std::string_view line)
{
    if (line.find_first_not_of(" \t\r") == std::string_view::npos)
        return;
    const auto parsed = parseAnswerLine(line);
    if (!parsed) {
        warn("ignored a malformed answer line (" + parsed.error() +
             "): " + std::string(line.substr(0, 200)));
        return;
    }
    auto question = questions_.take(parsed->id);
    if (!question) {
        warn("ignored the answer to question " + std::to_string(parsed->id) +
             ": no such question is waiting");
        return;
    }
    loop_.deadlines().remove(kQuestionDeadline | parsed->id);
    if (parsed->answer == Answer::Turn)
        turnAllowed_.insert(question->host);
    const std::string why =
        parsed->reason == Reason::UserDenied
            ? "was denied by the user"
            : std::string("was denied (") + std::string(reasonCode(parsed->reason)) + ")";
    settle(std::move(*question), parsed->answer, parsed->reason, why);
}

void ProxyServer::closeAnswers(std::string_view why)
{
    answersOpen_ = false;
    loop_.unwatch(STDIN_FILENO);
    answerInput_.clear();
    for (PendingQuestions::Question &question : questions_.takeAll()) {
        loop_.deadlines().remove(kQuestionDeadline | question.id);
        settle(std::move(question), Answer::Deny, Reason::NoAnswer,
               "got no answer: " + std::string(why));
    }
}

void ProxyServer::settle(PendingQuestions::Question question, Answer answer, Reason denial,
                         const std::string &why)
{
    for (const uint64_t waiter : question.waiters) {
        const auto found = connections_.find(waiter);
        if (found != connections_.end())
            found->second->onAnswer(question.id, answer, denial, why);
    }
}

std::optional<PendingQuestions::Held> ProxyServer::holdForAnswer(uint64_t connection,
                                                                 std::string_view client,
                                                                 const ExchangeRecord &record)
{
    if (!answersOpen_)
        return std::nullopt;
    const PendingQuestions::Held held = questions_.hold(connection, record.host, record.port);
    if (held.kind == PendingQuestions::Held::Kind::Asked) {
        loop_.deadlines().set(kQuestionDeadline | held.question, loop_.now() + config_.askTimeout);
        log_.write(formatAskLine(held.question, client, record, std::chrono::system_clock::now()));
    }
    return held;
}

} // namespace arizuko::egress
