#include "answer_line.hpp"

#include "json_object.hpp"

#include <string>

namespace arizuko::egress {
namespace {

std::optional<Answer> answerFromCode(std::string_view code)
{
    for (const Answer answer : {Answer::Once, Answer::Turn, Answer::Deny}) {
        if (answerCode(answer) == code)
            return answer;
    }
    return std::nullopt;
}

std::optional<Reason> denialFromCode(std::string_view code)
{
    for (const Reason reason : {Reason::UserDenied, Reason::NoAnswer, Reason::AskLimit}) {
        if (reasonCode(reason) == code)
            return reason;
    }
    return std::nullopt;
}

// The member's text when it is a string; nothing otherwise.
std::optional<std::string> textOf(const nlohmann::json &value)
{
    if (!value.is_string())
        return std::nullopt;
    return value.get<std::string>();
}

} // namespace

std::string_view answerCode(Answer answer)
{
    switch (answer) {
    case Answer::Once:
        return "once";
    case Answer::Turn:
        return "turn";
    case Answer::Deny:
        return "deny";
    }
    return "deny";
}

Expected<AnswerLine> parseAnswerLine(std::string_view line)
{
    const auto parsedLine = parseJsonObject(line);
    if (!parsedLine)
        return Failure{parsedLine.error()};
    const nlohmann::json &object = parsedLine.value();
    const auto id = object.find("id");
    if (id == object.end())
        return Failure{"no \"id\""};
    // Whole and positive: 1.5, 1e3, -1 and numbers past 64 bits are not question ids.
    if (!id->is_number_unsigned() || id->get<uint64_t>() == 0)
        return Failure{"\"id\" is not a question id"};
    const auto answerMember = object.find("answer");
    if (answerMember == object.end())
        return Failure{"no \"answer\""};
    const std::optional<std::string> answerText = textOf(*answerMember);
    const std::optional<Answer> answer = answerText ? answerFromCode(*answerText) : std::nullopt;
    if (!answer)
        return Failure{"\"answer\" is not once, turn or deny"};
    AnswerLine parsed;
    parsed.id = id->get<uint64_t>();
    parsed.answer = *answer;
    const auto reasonMember = object.find("reason");
    if (reasonMember == object.end())
        return parsed;
    if (*answer != Answer::Deny)
        return Failure{"\"reason\" goes only with \"deny\""};
    const std::optional<std::string> reasonText = textOf(*reasonMember);
    const std::optional<Reason> reason = reasonText ? denialFromCode(*reasonText) : std::nullopt;
    if (!reason)
        return Failure{"\"reason\" is not user-denied, no-answer or ask-limit"};
    parsed.reason = *reason;
    return parsed;
}

} // namespace arizuko::egress
