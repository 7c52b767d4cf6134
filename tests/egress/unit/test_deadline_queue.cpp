// The lazy deadline heap: later deadlines replace earlier ones without losing either order.

#include "deadline_queue.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

using namespace std::chrono_literals;
using TimePoint = DeadlineQueue::TimePoint;

const TimePoint kStart{};

TEST(DeadlineQueue, ExpiresInOrder)
{
    DeadlineQueue queue;
    queue.set(1, kStart + 3s);
    queue.set(2, kStart + 1s);
    EXPECT_EQ(queue.next(), kStart + 1s);
    EXPECT_TRUE(queue.takeExpired(kStart).empty());
    EXPECT_EQ(queue.takeExpired(kStart + 1s), std::vector<uint64_t>{2});
    EXPECT_EQ(queue.takeExpired(kStart + 10s), std::vector<uint64_t>{1});
    EXPECT_TRUE(queue.takeExpired(kStart + 20s).empty());
}

TEST(DeadlineQueue, ExtendingDelaysExpiry)
{
    DeadlineQueue queue;
    queue.set(1, kStart + 1s);
    queue.set(1, kStart + 5s);
    EXPECT_TRUE(queue.takeExpired(kStart + 2s).empty());
    EXPECT_EQ(queue.next(), kStart + 5s);
    EXPECT_EQ(queue.takeExpired(kStart + 5s), std::vector<uint64_t>{1});
}

TEST(DeadlineQueue, ShorteningExpiresEarlyAndOnce)
{
    DeadlineQueue queue;
    queue.set(1, kStart + 10s);
    queue.set(1, kStart + 2s);
    EXPECT_EQ(queue.takeExpired(kStart + 3s), std::vector<uint64_t>{1});
    EXPECT_TRUE(queue.takeExpired(kStart + 11s).empty());
}

TEST(DeadlineQueue, RemovedAndClearedNeverExpire)
{
    DeadlineQueue queue;
    queue.set(1, kStart + 1s);
    queue.set(2, kStart + 1s);
    queue.remove(1);
    queue.set(2, TimePoint::max());
    EXPECT_TRUE(queue.takeExpired(kStart + 2s).empty());
    queue.set(1, kStart + 3s);
    EXPECT_EQ(queue.takeExpired(kStart + 3s), std::vector<uint64_t>{1});
}

} // namespace
} // namespace arizuko::egress
