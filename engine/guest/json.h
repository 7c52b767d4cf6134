#pragma once

// The JSON the guest reads: the host's turn spec and control lines, strictly.
// nlohmann's parser does the lexing (UTF-8, escapes, numbers); this keeps
// members in order and refuses what it would accept but the protocol must
// not (duplicate keys, deep nesting, a byte order mark). The guest writes
// JSON with jsontext::ObjectWriter.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace arizuko::guest::json {

class ParseError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class Value;
using Array = std::vector<Value>;
// Members keep their order; objects are small, so lookups are linear.
using Object = std::vector<std::pair<std::string, Value>>;

class Value
{
public:
    struct Number
    {
        double value = 0;
        // Set when the literal had no fraction or exponent and fits.
        std::optional<std::int64_t> integer;
    };

    Value() = default;
    explicit Value(bool flag)
        : m_data(flag)
    {}
    explicit Value(Number number)
        : m_data(number)
    {}
    explicit Value(std::string text)
        : m_data(std::move(text))
    {}
    explicit Value(Array array)
        : m_data(std::move(array))
    {}
    explicit Value(Object object)
        : m_data(std::move(object))
    {}

    bool isNull() const { return std::holds_alternative<std::monostate>(m_data); }
    const bool *asBool() const { return std::get_if<bool>(&m_data); }
    const Number *asNumber() const { return std::get_if<Number>(&m_data); }
    const std::string *asString() const { return std::get_if<std::string>(&m_data); }
    const Array *asArray() const { return std::get_if<Array>(&m_data); }
    const Object *asObject() const { return std::get_if<Object>(&m_data); }
    Array *asArray() { return std::get_if<Array>(&m_data); }
    Object *asObject() { return std::get_if<Object>(&m_data); }

    // The member named `key` of an object; null when absent or not an object.
    const Value *find(std::string_view key) const;

private:
    std::variant<std::monostate, bool, Number, std::string, Array, Object> m_data;
};

// Parses exactly one JSON text (surrounding whitespace allowed). Strict:
// invalid UTF-8, lone surrogates, duplicate keys, nesting deeper than 64
// levels and a byte order mark are errors.
Value parse(std::string_view text);

} // namespace arizuko::guest::json
