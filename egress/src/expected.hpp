#pragma once

// A value or the reason there is none. The core returns errors as values so the event loop never
// unwinds an exception through a connection's state machine.

#include <string>
#include <utility>
#include <variant>

namespace arizuko::egress {

struct Failure
{
    std::string message;
};

template<typename T>
class Expected
{
public:
    Expected(T value)
        : state_(std::move(value))
    {}
    Expected(Failure failure)
        : state_(std::move(failure))
    {}

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<T>(state_); }
    const T &value() const { return std::get<T>(state_); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const std::string &error() const { return std::get<Failure>(state_).message; }

private:
    std::variant<T, Failure> state_;
};

} // namespace arizuko::egress
