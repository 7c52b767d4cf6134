// The questions a --ask proxy waits on: one per host:port (later requests join it), at most the
// limit at once, each taken once.

#include "pending_questions.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

using Kind = PendingQuestions::Held::Kind;

TEST(PendingQuestions, ASecondRequestForTheSameTargetJoinsTheQuestion)
{
    PendingQuestions questions(5);
    const auto first = questions.hold(10, "a.com", 443);
    EXPECT_EQ(first.kind, Kind::Asked);
    const auto second = questions.hold(11, "a.com", 443);
    EXPECT_EQ(second.kind, Kind::Joined);
    EXPECT_EQ(second.question, first.question);
    // Another port or another host is another question.
    const auto otherPort = questions.hold(12, "a.com", 80);
    EXPECT_EQ(otherPort.kind, Kind::Asked);
    EXPECT_NE(otherPort.question, first.question);
    EXPECT_EQ(questions.hold(13, "b.com", 443).kind, Kind::Asked);
    EXPECT_EQ(questions.size(), 3u);

    const auto taken = questions.take(first.question);
    ASSERT_TRUE(taken);
    EXPECT_EQ(taken->host, "a.com");
    EXPECT_EQ(taken->port, 443);
    EXPECT_EQ(taken->waiters, (std::vector<uint64_t>{10, 11}));
    EXPECT_FALSE(questions.take(first.question)) << "a question is answered once";
    // Once answered, the next request asks again, under a new id.
    const auto again = questions.hold(14, "a.com", 443);
    EXPECT_EQ(again.kind, Kind::Asked);
    EXPECT_GT(again.question, otherPort.question);
}

TEST(PendingQuestions, TheLimitCountsQuestionsNotWaiters)
{
    PendingQuestions questions(2);
    EXPECT_EQ(questions.hold(1, "a.com", 443).kind, Kind::Asked);
    EXPECT_EQ(questions.hold(2, "b.com", 443).kind, Kind::Asked);
    EXPECT_EQ(questions.hold(3, "c.com", 443).kind, Kind::OverLimit);
    EXPECT_EQ(questions.hold(4, "a.com", 443).kind, Kind::Joined);
    EXPECT_EQ(questions.size(), 2u);
    EXPECT_EQ(questions.takeAll().size(), 2u);
    EXPECT_EQ(questions.size(), 0u);
    EXPECT_EQ(questions.hold(5, "c.com", 443).kind, Kind::Asked);
}

TEST(PendingQuestions, AConnectionThatLeftNoLongerWaits)
{
    PendingQuestions questions(2);
    const auto held = questions.hold(1, "a.com", 443);
    questions.hold(2, "a.com", 443);
    questions.forget(1, held.question);
    questions.forget(7, held.question);
    questions.forget(2, 999);
    const auto taken = questions.take(held.question);
    ASSERT_TRUE(taken);
    EXPECT_EQ(taken->waiters, std::vector<uint64_t>{2});
}

} // namespace
} // namespace arizuko::egress
