#include "json.h"

#include <limits>
#include <nlohmann/json.hpp>

namespace arizuko::guest::json {

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

constexpr std::size_t maxDepth = 64;

using Nlohmann = nlohmann::json;

// Builds Values from nlohmann's events, each in its place: an open
// container lives in its parent (or is the root) and the stack points to
// it; an object's member waits for its value under the key last read.
class ValueBuilder final : public nlohmann::json_sax<Nlohmann>
{
public:
    Value takeRoot() { return std::move(m_root); }
    const std::string &refusal() const { return m_refusal; }

    bool null() override { return put(); }
    bool boolean(bool flag) override { return put(flag); }

    bool number_integer(number_integer_t number) override
    {
        return put(Value::Number{static_cast<double>(number), number});
    }

    bool number_unsigned(number_unsigned_t number) override
    {
        Value::Number value{static_cast<double>(number), std::nullopt};
        if (number <= static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max()))
            value.integer = static_cast<std::int64_t>(number);
        return put(value);
    }

    bool number_float(number_float_t number, const string_t &) override
    {
        return put(Value::Number{number, std::nullopt});
    }

    bool string(string_t &text) override { return put(std::move(text)); }
    bool binary(binary_t &) override { return refuse("binary data"); }

    bool start_object(std::size_t) override { return open(Object{}); }
    bool start_array(std::size_t) override { return open(Array{}); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &name) override
    {
        for (const auto &member : *m_open.back().object)
            if (member.first == name)
                return refuse("duplicate member \"" + name + "\"");
        m_key = std::move(name);
        return true;
    }

    bool parse_error(std::size_t, const std::string &,
                     const nlohmann::detail::exception &error) override
    {
        return refuse(error.what());
    }

private:
    // Containers are built in place: their Value lives in its parent (or is
    // the root), and the stack holds where.
    struct Open
    {
        Array *array = nullptr;
        Object *object = nullptr;
    };

    template<typename... Arguments>
    bool put(Arguments &&...arguments)
    {
        place(std::forward<Arguments>(arguments)...);
        return true;
    }

    // The new value, made in its place from `arguments` (Value's own
    // constructors).
    template<typename... Arguments>
    Value *place(Arguments &&...arguments)
    {
        if (m_open.empty()) {
            m_root = Value(std::forward<Arguments>(arguments)...);
            return &m_root;
        }
        Open &parent = m_open.back();
        if (parent.array)
            return &parent.array->emplace_back(std::forward<Arguments>(arguments)...);
        return &parent.object
                    ->emplace_back(std::piecewise_construct,
                                   std::forward_as_tuple(std::move(m_key)),
                                   std::forward_as_tuple(std::forward<Arguments>(arguments)...))
                    .second;
    }

    template<typename Container>
    bool open(Container container)
    {
        if (m_open.size() >= maxDepth)
            return refuse("nesting deeper than " + std::to_string(maxDepth) + " levels");
        Value *placed = place(std::move(container));
        m_open.push_back({placed->asArray(), placed->asObject()});
        return true;
    }

    bool close()
    {
        m_open.pop_back();
        return true;
    }

    bool refuse(std::string why)
    {
        m_refusal = std::move(why);
        return false;
    }

    Value m_root;
    std::vector<Open> m_open;
    std::string m_key;
    std::string m_refusal;
};

} // namespace

Value parse(std::string_view text)
{
    // nlohmann skips a leading byte order mark; the host never sends one.
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        throw ParseError("a byte order mark before the value");
    ValueBuilder builder;
    if (!Nlohmann::sax_parse(text, &builder))
        throw ParseError(builder.refusal());
    return builder.takeRoot();
}

} // namespace arizuko::guest::json
