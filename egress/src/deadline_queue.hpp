#pragma once

// One pending deadline per connection, kept in a heap whose entries are corrected lazily: pushing
// a later deadline (every idle-timer refresh) costs a hash lookup, not a heap operation.

#include <chrono>
#include <cstdint>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace arizuko::egress {

class DeadlineQueue
{
public:
    using Clock = std::chrono::steady_clock;
    using TimePoint = Clock::time_point;

    // Sets (replaces) the deadline of `id`.
    void set(uint64_t id, TimePoint when);
    void remove(uint64_t id);
    // The earliest time something may expire; may be early, never late.
    std::optional<TimePoint> next() const;
    // Removes and returns the ids whose deadline is at or before `now`.
    std::vector<uint64_t> takeExpired(TimePoint now);

private:
    struct Slot
    {
        TimePoint deadline = TimePoint::max();
        TimePoint queued = TimePoint::max();
    };
    struct Entry
    {
        TimePoint when;
        uint64_t id;
        bool operator>(const Entry &other) const { return when > other.when; }
    };
    void push(uint64_t id, Slot &slot, TimePoint when);

    std::unordered_map<uint64_t, Slot> slots_;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

} // namespace arizuko::egress
