#pragma once

// The engine's answers to held requests (--ask): one JSON object a line on the proxy's stdin,
// {"id":7,"answer":"once"|"turn"|"deny","reason":"user-denied"|"no-answer"|"ask-limit"}
// (docs/egress.md, "Asking while a request waits").

#include "expected.hpp"
#include "reason.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace arizuko::egress {

enum class Answer
{
    Once, // the held connections of this question go on
    Turn, // so do they, and the host is allowed for the rest of the proxy's life
    Deny,
};

std::string_view answerCode(Answer answer);

struct AnswerLine
{
    uint64_t id = 0;
    Answer answer = Answer::Deny;
    // With Deny: user-denied (also when the line names none), no-answer or ask-limit.
    Reason reason = Reason::UserDenied;
};

// Parses one line (without its newline). Strict about the three members, which must each appear
// once; other members are ignored, so the engine may add some.
Expected<AnswerLine> parseAnswerLine(std::string_view line);

} // namespace arizuko::egress
