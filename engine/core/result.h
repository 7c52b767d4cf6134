#pragma once

// Errors as values inside the engine: every fallible operation returns a
// Result carrying either its value or an Error that a front-end can show.

#include <QString>

#include <utility>
#include <variant>

namespace arizuko {

struct Error
{
    // A stable, machine-readable code ("store.corrupt", "policy.bad-host") and
    // a sentence for a person that names what was wrong.
    QString code;
    QString message;
};

template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_state(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_state); }
    const T &value() const & { return std::get<0>(m_state); }
    T &&value() && { return std::get<0>(std::move(m_state)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Error &error() const { return std::get<1>(m_state); }

private:
    std::variant<T, Error> m_state;
};

template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_failed(true) {}

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

inline Error makeError(QString code, QString message)
{
    return Error{std::move(code), std::move(message)};
}

} // namespace arizuko
