#pragma once

// The questions a --ask proxy has put to the engine and not yet had answered: which connections
// wait on each, one question per host:port at a time (later requests join it), and at most
// --ask-limit of them at once.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace arizuko::egress {

class PendingQuestions
{
public:
    explicit PendingQuestions(size_t limit)
        : limit_(limit)
    {}

    struct Question
    {
        uint64_t id = 0;
        std::string host;
        uint16_t port = 0;
        std::vector<uint64_t> waiters; // connection ids, in the order they asked
    };

    struct Held
    {
        enum class Kind
        {
            Asked,     // a new question: the caller logs its ask line
            Joined,    // the same host:port was already asked about
            OverLimit, // --ask-limit questions wait already
        };
        Kind kind;
        uint64_t question = 0; // the question's id, unless OverLimit
    };

    // Holds `connection` on the question about host:port, asking one if there is none.
    Held hold(uint64_t connection, const std::string &host, uint16_t port);
    // Removes an answered or expired question and returns it; nothing for an unknown id.
    std::optional<Question> take(uint64_t question);
    // Removes every question (stdin closed, shutting down).
    std::vector<Question> takeAll();
    // A held connection that closed stops waiting; its question stays until it is answered.
    void forget(uint64_t connection, uint64_t question);

    size_t size() const { return questions_.size(); }

private:
    using Key = std::pair<std::string, uint16_t>;

    size_t limit_;
    uint64_t nextId_ = 1;
    std::map<uint64_t, Question> questions_;
    std::map<Key, uint64_t> byTarget_;
};

} // namespace arizuko::egress
