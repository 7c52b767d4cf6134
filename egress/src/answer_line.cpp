#include "answer_line.hpp"

#include <charconv>
#include <optional>
#include <string>

namespace arizuko::egress {
namespace {

// A reader for the flat objects the engine writes: string, whole-number, true, false and null
// members, nothing nested. Strings may use the JSON escapes; \u escapes other than ASCII ones
// are refused, as no member we read holds anything else.
class FlatObjectReader
{
public:
    explicit FlatObjectReader(std::string_view text)
        : text_(text)
    {}

    struct Member
    {
        std::string key;
        std::optional<std::string> text;
        std::optional<uint64_t> number;
    };

    // Calls `onMember` for each member; returns the first syntax error.
    template<typename OnMember>
    std::optional<std::string> read(OnMember onMember)
    {
        skipBlanks();
        if (!take('{'))
            return "not a JSON object";
        skipBlanks();
        if (take('}'))
            return finish();
        while (true) {
            Member member;
            auto key = readString();
            if (!key)
                return "expected a member name";
            member.key = std::move(*key);
            skipBlanks();
            if (!take(':'))
                return "expected ':' after \"" + member.key + "\"";
            skipBlanks();
            if (auto error = readValue(member))
                return error;
            if (auto error = onMember(member))
                return error;
            skipBlanks();
            if (take('}'))
                return finish();
            if (!take(','))
                return "expected ',' or '}'";
            skipBlanks();
        }
    }

private:
    std::optional<std::string> finish()
    {
        skipBlanks();
        if (position_ != text_.size())
            return "text after the object";
        return std::nullopt;
    }

    void skipBlanks()
    {
        while (position_ < text_.size() &&
               (text_[position_] == ' ' || text_[position_] == '\t' || text_[position_] == '\r'))
            ++position_;
    }

    bool take(char c)
    {
        if (position_ < text_.size() && text_[position_] == c) {
            ++position_;
            return true;
        }
        return false;
    }

    std::optional<std::string> readString()
    {
        if (!take('"'))
            return std::nullopt;
        std::string out;
        while (position_ < text_.size()) {
            const char c = text_[position_++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                return std::nullopt;
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (position_ >= text_.size())
                return std::nullopt;
            const char escaped = text_[position_++];
            switch (escaped) {
            case '"':
            case '\\':
            case '/':
                out.push_back(escaped);
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                unsigned code = 0;
                const std::string_view hex = text_.substr(position_, 4);
                const auto [end, error] =
                    std::from_chars(hex.data(), hex.data() + hex.size(), code, 16);
                if (hex.size() != 4 || error != std::errc{} || end != hex.data() + 4 || code > 0x7F)
                    return std::nullopt;
                position_ += 4;
                out.push_back(static_cast<char>(code));
                break;
            }
            default:
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<std::string> readValue(Member &member)
    {
        if (position_ < text_.size() && text_[position_] == '"') {
            member.text = readString();
            if (!member.text)
                return "bad string for \"" + member.key + "\"";
            return std::nullopt;
        }
        for (const std::string_view word : {"true", "false", "null"}) {
            if (text_.substr(position_).starts_with(word)) {
                position_ += word.size();
                return std::nullopt;
            }
        }
        const char *begin = text_.data() + position_;
        uint64_t number = 0;
        const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), number);
        if (error != std::errc{} || end == begin)
            return "\"" + member.key + "\" is not a string, a whole number, true, false or null";
        // A fraction or an exponent would make it another number than the one read.
        if (end < text_.data() + text_.size() && (*end == '.' || *end == 'e' || *end == 'E'))
            return "\"" + member.key + "\" is not a whole number";
        position_ += static_cast<size_t>(end - begin);
        member.number = number;
        return std::nullopt;
    }

    std::string_view text_;
    size_t position_ = 0;
};

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
    std::optional<uint64_t> id;
    std::optional<Answer> answer;
    std::optional<Reason> reason;
    FlatObjectReader reader(line);
    const auto error =
        reader.read([&](const FlatObjectReader::Member &member) -> std::optional<std::string> {
            const bool known =
                member.key == "id" || member.key == "answer" || member.key == "reason";
            if (!known)
                return std::nullopt;
            if ((member.key == "id" && id) || (member.key == "answer" && answer) ||
                (member.key == "reason" && reason))
                return "\"" + member.key + "\" given twice";
            if (member.key == "id") {
                if (!member.number || *member.number == 0)
                    return std::string("\"id\" is not a question id");
                id = member.number;
            } else if (member.key == "answer") {
                if (member.text)
                    answer = answerFromCode(*member.text);
                if (!answer)
                    return std::string("\"answer\" is not once, turn or deny");
            } else {
                if (member.text)
                    reason = denialFromCode(*member.text);
                if (!reason)
                    return std::string("\"reason\" is not user-denied, no-answer or ask-limit");
            }
            return std::nullopt;
        });
    if (error)
        return Failure{*error};
    if (!id)
        return Failure{"no \"id\""};
    if (!answer)
        return Failure{"no \"answer\""};
    if (reason && *answer != Answer::Deny)
        return Failure{"\"reason\" goes only with \"deny\""};
    AnswerLine parsed;
    parsed.id = *id;
    parsed.answer = *answer;
    parsed.reason = reason.value_or(Reason::UserDenied);
    return parsed;
}

} // namespace arizuko::egress
