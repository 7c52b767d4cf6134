#include "pending_questions.hpp"

#include <algorithm>

namespace arizuko::egress {

PendingQuestions::Held PendingQuestions::hold(uint64_t connection, const std::string &host,
                                              uint16_t port)
{
    const auto found = byTarget_.find({host, port});
    if (found != byTarget_.end()) {
        questions_[found->second].waiters.push_back(connection);
        return {Held::Kind::Joined, found->second};
    }
    if (questions_.size() >= limit_)
        return {Held::Kind::OverLimit, 0};
    const uint64_t id = nextId_++;
    questions_[id] = Question{id, host, port, {connection}};
    byTarget_[{host, port}] = id;
    return {Held::Kind::Asked, id};
}

std::optional<PendingQuestions::Question> PendingQuestions::take(uint64_t question)
{
    const auto found = questions_.find(question);
    if (found == questions_.end())
        return std::nullopt;
    Question taken = std::move(found->second);
    questions_.erase(found);
    byTarget_.erase({taken.host, taken.port});
    return taken;
}

std::vector<PendingQuestions::Question> PendingQuestions::takeAll()
{
    std::vector<Question> all;
    all.reserve(questions_.size());
    for (auto &entry : questions_)
        all.push_back(std::move(entry.second));
    questions_.clear();
    byTarget_.clear();
    return all;
}

void PendingQuestions::forget(uint64_t connection, uint64_t question)
{
    const auto found = questions_.find(question);
    if (found == questions_.end())
        return;
    std::vector<uint64_t> &waiters = found->second.waiters;
    waiters.erase(std::remove(waiters.begin(), waiters.end(), connection), waiters.end());
}

} // namespace arizuko::egress
