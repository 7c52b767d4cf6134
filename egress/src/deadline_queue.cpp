#include "deadline_queue.hpp"

namespace arizuko::egress {

void DeadlineQueue::push(uint64_t id, Slot &slot, TimePoint when)
{
    heap_.push({when, id});
    slot.queued = when;
}

void DeadlineQueue::set(uint64_t id, TimePoint when)
{
    Slot &slot = slots_[id];
    slot.deadline = when;
    // A later deadline is found when the earlier heap entry pops; only an earlier one needs a push.
    if (when != TimePoint::max() && when < slot.queued)
        push(id, slot, when);
}

void DeadlineQueue::remove(uint64_t id)
{
    slots_.erase(id);
}

std::optional<DeadlineQueue::TimePoint> DeadlineQueue::next() const
{
    if (heap_.empty())
        return std::nullopt;
    return heap_.top().when;
}

std::vector<uint64_t> DeadlineQueue::takeExpired(TimePoint now)
{
    std::vector<uint64_t> expired;
    while (!heap_.empty() && heap_.top().when <= now) {
        const Entry entry = heap_.top();
        heap_.pop();
        const auto found = slots_.find(entry.id);
        if (found == slots_.end() || found->second.queued != entry.when)
            continue; // superseded by an earlier push, or the connection is gone
        Slot &slot = found->second;
        slot.queued = TimePoint::max();
        if (slot.deadline <= now) {
            slot.deadline = TimePoint::max();
            expired.push_back(entry.id);
        } else if (slot.deadline != TimePoint::max()) {
            push(entry.id, slot, slot.deadline);
        }
    }
    return expired;
}

} // namespace arizuko::egress
