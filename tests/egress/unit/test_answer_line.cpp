// The engine's answer lines on the proxy's stdin: the three members, strictly; anything else is an
// error the proxy logs as a warning and ignores.

#include "answer_line.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

TEST(AnswerLine, TheThreeAnswers)
{
    auto once = parseAnswerLine(R"({"id":1,"answer":"once"})");
    ASSERT_TRUE(once) << once.error();
    EXPECT_EQ(once->id, 1u);
    EXPECT_EQ(once->answer, Answer::Once);
    auto turn = parseAnswerLine(R"( { "answer" : "turn" , "id" : 18446744073709551615 } )");
    ASSERT_TRUE(turn) << turn.error();
    EXPECT_EQ(turn->id, 18446744073709551615u);
    EXPECT_EQ(turn->answer, Answer::Turn);
    auto deny = parseAnswerLine(R"({"id":3,"answer":"deny","reason":"ask-limit"})");
    ASSERT_TRUE(deny) << deny.error();
    EXPECT_EQ(deny->answer, Answer::Deny);
    EXPECT_EQ(deny->reason, Reason::AskLimit);
}

TEST(AnswerLine, ADenialWithoutAReasonIsTheUsers)
{
    auto deny = parseAnswerLine(R"({"id":3,"answer":"deny"})");
    ASSERT_TRUE(deny) << deny.error();
    EXPECT_EQ(deny->reason, Reason::UserDenied);
    auto escaped = parseAnswerLine(R"({"id":3,"answer":"d\u0065ny","reason":"no-answer"})");
    ASSERT_TRUE(escaped) << escaped.error();
    EXPECT_EQ(escaped->reason, Reason::NoAnswer);
}

TEST(AnswerLine, OtherMembersAreIgnored)
{
    auto line = parseAnswerLine(R"({"id":4,"answer":"once","by":"user","at":17,"audited":true,)"
                                R"("note":null,"scope":{"kind":"turn"},"list":[1]})");
    ASSERT_TRUE(line) << line.error();
    EXPECT_EQ(line->id, 4u);
}

TEST(AnswerLine, MalformedLinesAreErrors)
{
    for (const char *bad : {
             "",
             "once",
             "[1]",
             R"({"id":1})",
             R"({"answer":"once"})",
             R"({"id":0,"answer":"once"})",
             R"({"id":-1,"answer":"once"})",
             R"({"id":1.5,"answer":"once"})",
             R"({"id":1e3,"answer":"once"})",
             R"({"id":"1","answer":"once"})",
             R"({"id":1,"answer":"always"})",
             R"({"id":1,"answer":"ONCE"})",
             R"({"id":1,"answer":1})",
             R"({"id":1,"answer":"once","reason":"user-denied"})",
             R"({"id":1,"answer":"deny","reason":"host-denied"})",
             R"({"id":1,"id":2,"answer":"once"})",
             R"({"id":1,"answer":"once","answer":"deny"})",
             R"({"id":1,"answer":"once"} x)",
             R"({"id":1,"answer":"once")",
             R"({"id":1,"answer":"once",})",
             R"({"id":1,"answer":"once","x":1,"x":2})",
             R"({"id":1,"answer":"on\u00e9"})",
             "{\"id\":1,\"answer\":\"on\nce\"}",
             R"({"id":99999999999999999999,"answer":"once"})",
         }) {
        const auto parsed = parseAnswerLine(bad);
        EXPECT_FALSE(parsed) << bad;
        if (!parsed) {
            EXPECT_FALSE(parsed.error().empty()) << bad;
        }
    }
}

} // namespace
} // namespace arizuko::egress
