#include "json.h"

#include "jsontext/json_string.h"
#include "jsontext/utf8.h"

#include <charconv>
#include <cmath>

namespace arizuko::guest::json {

ParseError::ParseError(const std::string &what, std::size_t offset)
    : std::runtime_error(what + " at byte " + std::to_string(offset))
    , m_offset(offset)
{}

const Value *Value::find(std::string_view key) const
{
    const Object *object = asObject();
    if (!object)
        return nullptr;
    for (const auto &[name, value] : *object) {
        if (name == key)
            return &value;
    }
    return nullptr;
}

namespace {

constexpr int maxDepth = 64;

class Parser
{
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    {}

    Value parseDocument()
    {
        skipWhitespace();
        Value value = parseValue(0);
        skipWhitespace();
        if (m_position != m_text.size())
            fail("unexpected data after the value");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string &what) const { throw ParseError(what, m_position); }

    bool atEnd() const { return m_position >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_position]; }

    void skipWhitespace()
    {
        while (!atEnd()) {
            const char c = m_text[m_position];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                return;
            ++m_position;
        }
    }

    void expectWord(std::string_view word)
    {
        if (m_text.substr(m_position, word.size()) != word)
            fail("invalid literal");
        m_position += word.size();
    }

    Value parseValue(int depth)
    {
        if (depth > maxDepth)
            fail("nesting too deep");
        switch (peek()) {
        case '{':
            return parseObject(depth);
        case '[':
            return parseArray(depth);
        case '"':
            return Value(parseString());
        case 't':
            expectWord("true");
            return Value(true);
        case 'f':
            expectWord("false");
            return Value(false);
        case 'n':
            expectWord("null");
            return Value();
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
                return Value(parseNumber());
            fail(atEnd() ? "unexpected end of input" : "unexpected character");
        }
    }

    Value parseObject(int depth)
    {
        ++m_position; // '{'
        Object members;
        skipWhitespace();
        if (peek() == '}') {
            ++m_position;
            return Value(std::move(members));
        }
        for (;;) {
            skipWhitespace();
            if (peek() != '"')
                fail("expected a member name");
            std::string key = parseString();
            for (const auto &member : members) {
                if (member.first == key)
                    fail("duplicate member \"" + key + "\"");
            }
            skipWhitespace();
            if (peek() != ':')
                fail("expected ':'");
            ++m_position;
            skipWhitespace();
            Value value = parseValue(depth + 1);
            members.emplace_back(std::move(key), std::move(value));
            skipWhitespace();
            if (peek() == ',') {
                ++m_position;
                continue;
            }
            if (peek() == '}') {
                ++m_position;
                return Value(std::move(members));
            }
            fail("expected ',' or '}'");
        }
    }

    Value parseArray(int depth)
    {
        ++m_position; // '['
        Array items;
        skipWhitespace();
        if (peek() == ']') {
            ++m_position;
            return Value(std::move(items));
        }
        for (;;) {
            skipWhitespace();
            items.push_back(parseValue(depth + 1));
            skipWhitespace();
            if (peek() == ',') {
                ++m_position;
                continue;
            }
            if (peek() == ']') {
                ++m_position;
                return Value(std::move(items));
            }
            fail("expected ',' or ']'");
        }
    }

    char32_t parseHexQuad()
    {
        if (m_position + 4 > m_text.size())
            fail("truncated \\u escape");
        char32_t value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_text[m_position++];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= static_cast<char32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= static_cast<char32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= static_cast<char32_t>(c - 'A' + 10);
            else
                fail("invalid \\u escape");
        }
        return value;
    }

    char32_t parseUnicodeEscape()
    {
        const char32_t first = parseHexQuad();
        if (first >= 0xDC00 && first <= 0xDFFF)
            fail("lone low surrogate");
        if (first < 0xD800 || first > 0xDBFF)
            return first;
        if (m_text.substr(m_position, 2) != "\\u")
            fail("high surrogate without its low half");
        m_position += 2;
        const char32_t second = parseHexQuad();
        if (second < 0xDC00 || second > 0xDFFF)
            fail("high surrogate without its low half");
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    }

    std::string parseString()
    {
        ++m_position; // opening quote
        std::string out;
        for (;;) {
            if (atEnd())
                fail("unterminated string");
            const auto byte = static_cast<unsigned char>(m_text[m_position]);
            if (byte == '"') {
                ++m_position;
                return out;
            }
            if (byte < 0x20)
                fail("control character in string");
            if (byte == '\\') {
                ++m_position;
                if (atEnd())
                    fail("unterminated string");
                const char escape = m_text[m_position++];
                switch (escape) {
                case '"':
                    out.push_back('"');
                    break;
                case '\\':
                    out.push_back('\\');
                    break;
                case '/':
                    out.push_back('/');
                    break;
                case 'b':
                    out.push_back('\b');
                    break;
                case 'f':
                    out.push_back('\f');
                    break;
                case 'n':
                    out.push_back('\n');
                    break;
                case 'r':
                    out.push_back('\r');
                    break;
                case 't':
                    out.push_back('\t');
                    break;
                case 'u':
                    utf8::append(out, parseUnicodeEscape());
                    break;
                default:
                    --m_position;
                    fail("invalid escape");
                }
                continue;
            }
            const std::size_t start = m_position;
            if (!utf8::decode(m_text, m_position))
                fail("invalid UTF-8");
            out.append(m_text.substr(start, m_position - start));
        }
    }

    Value::Number parseNumber()
    {
        const std::size_t start = m_position;
        const auto digits = [&] {
            const std::size_t from = m_position;
            while (!atEnd() && peek() >= '0' && peek() <= '9')
                ++m_position;
            return m_position - from;
        };
        if (peek() == '-')
            ++m_position;
        if (peek() == '0')
            ++m_position;
        else if (digits() == 0)
            fail("invalid number");
        bool integral = true;
        if (peek() == '.') {
            integral = false;
            ++m_position;
            if (digits() == 0)
                fail("invalid number");
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            ++m_position;
            if (peek() == '+' || peek() == '-')
                ++m_position;
            if (digits() == 0)
                fail("invalid number");
        }
        const char *first = m_text.data() + start;
        const char *last = m_text.data() + m_position;
        Value::Number number;
        const auto parsed = std::from_chars(first, last, number.value);
        if (parsed.ec != std::errc() || !std::isfinite(number.value))
            fail("number out of range");
        if (integral) {
            std::int64_t integer = 0;
            if (std::from_chars(first, last, integer).ec == std::errc())
                number.integer = integer;
        }
        return number;
    }

    std::string_view m_text;
    std::size_t m_position = 0;
};

} // namespace

Value parse(std::string_view text)
{
    return Parser(text).parseDocument();
}

void ObjectWriter::addKey(std::string_view key)
{
    if (m_text.size() > 1)
        m_text.push_back(',');
    jsontext::appendString(m_text, key);
    m_text.push_back(':');
}

ObjectWriter &ObjectWriter::add(std::string_view key, std::string_view text)
{
    addKey(key);
    jsontext::appendString(m_text, text);
    return *this;
}

ObjectWriter &ObjectWriter::add(std::string_view key, std::int64_t number)
{
    addKey(key);
    m_text += std::to_string(number);
    return *this;
}

ObjectWriter &ObjectWriter::add(std::string_view key, bool flag)
{
    addKey(key);
    m_text += flag ? "true" : "false";
    return *this;
}

std::string ObjectWriter::finish() &&
{
    m_text.push_back('}');
    return std::move(m_text);
}

} // namespace arizuko::guest::json
