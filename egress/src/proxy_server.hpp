#pragma once

// The listener, the connections it accepted, the resolver and the signals: everything the event
// loop serves, and the orderly drain on SIGTERM.

#include "config.hpp"
#include "connection.hpp"
#include "decision_log.hpp"
#include "event_loop.hpp"
#include "expected.hpp"
#include "list_loader.hpp"
#include "pending_questions.hpp"
#include "posix/unique_fd.h"
#include "resolver.hpp"
#include "turn_authority.hpp"
#include "value_scrubber.hpp"
#include "wakeup_fd.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace arizuko::egress {

class ProxyServer
{
public:
    // `authority` is the turn's CA (--inspect-ca-fd); null when no host is inspected.
    ProxyServer(Config config, std::unique_ptr<TurnAuthority> authority);

    // Binds and listens; returns the bound address (the chosen port for port 0).
    Expected<SocketAddress> listen();
    // Loads the list files and serves until SIGTERM or SIGINT and the drain that follows; returns
    // the exit status (2 when a list file is unreadable or holds a bad entry).
    int run();

    Config &config() { return config_; }
    EventLoop &loop() { return loop_; }
    Resolver &resolver() { return resolver_; }
    const DecisionLog &log() const { return log_; }
    bool draining() const { return draining_; }
    // Whether the lists are loaded; until then requests get 503 starting.
    bool ready() const { return ready_; }

    TurnAuthority *authority() { return authority_.get(); }
    // Scrubs the secrets' values from the responses of inspected hosts (empty without secrets).
    const ValueScrubber &scrubber() const { return scrubber_; }
    // Called on an inspected connection's own thread when it ends; the connection is told on the
    // event loop's thread.
    void inspectionFinished(uint64_t id);

    // Called by a connection that stops counting towards --max-connections.
    void releaseSlot() { --serving_; }
    // Called by a closed connection; it is destroyed after the current batch of events, since
    // events already fetched may still name it.
    void retire(uint64_t id);

    // --ask: whether an answer "turn" allowed this exact host for the rest of the proxy's life.
    bool allowedForTurn(const HostName &host) const { return turnAllowed_.contains(host.text); }
    // Holds `connection` until the user answers about its request (logging the ask line of a new
    // question); nothing when nobody can answer any more (stdin closed, or draining).
    std::optional<PendingQuestions::Held>
    holdForAnswer(uint64_t connection, std::string_view client, const ExchangeRecord &record);
    // A held connection that closed.
    void stopWaiting(uint64_t connection, uint64_t question)
    {
        questions_.forget(connection, question);
    }

private:
    class Watcher final : public EventLoop::Watcher
    {
    public:
        explicit Watcher(std::function<void()> handler)
            : handler_(std::move(handler))
        {}
        void onEvents(uint32_t) override { handler_(); }

    private:
        std::function<void()> handler_;
    };

    void finishLoading();
    void markReady();
    void acceptAll();
    void afterBatch();
    void deliverAnswers();
    void deliverInspectionsDone();
    void onSignal();
    void onDeadline(uint64_t id);
    void closeAll();
    void watchAnswers();
    void readAnswers();
    void handleAnswerLine(std::string_view line);
    void closeAnswers(std::string_view why);
    // Delivers an answer to every connection waiting on `question`.
    void settle(PendingQuestions::Question question, Answer answer, Reason denial,
                const std::string &why);
    void warn(std::string message);
    void forEachConnection(const std::function<void(Connection &)> &action);

    Config config_;
    DecisionLog log_{2};
    EventLoop loop_;
    Resolver resolver_;
    posix::UniqueFd listener_;
    SocketAddress bound_;
    std::unique_ptr<ListLoader> loader_;
    posix::UniqueFd signals_;
    Watcher listenerWatcher_{[this] { acceptAll(); }};
    Watcher resolverWatcher_{[this] { deliverAnswers(); }};
    Watcher signalWatcher_{[this] { onSignal(); }};
    Watcher loaderWatcher_{[this] { finishLoading(); }};
    Watcher answerWatcher_{[this] { readAnswers(); }};
    Watcher inspectionWatcher_{[this] { deliverInspectionsDone(); }};
    std::unique_ptr<TurnAuthority> authority_;
    ValueScrubber scrubber_;
    WakeupFd inspectionsDone_;
    std::mutex finishedMutex_;
    std::vector<uint64_t> finishedInspections_;
    PendingQuestions questions_;
    std::unordered_set<std::string> turnAllowed_;
    // Whether answers can still arrive on stdin; with --ask only.
    bool answersOpen_ = false;
    std::string answerInput_;
    bool skippingLongLine_ = false;
    std::unordered_map<uint64_t, std::unique_ptr<Connection>> connections_;
    std::vector<std::unique_ptr<Connection>> retired_;
    uint64_t nextId_ = 1;
    size_t serving_ = 0;
    bool ready_ = false;
    bool acceptStalled_ = false;
    bool draining_ = false;
    bool stopped_ = false;
    int exitStatus_ = 0;
};

} // namespace arizuko::egress
