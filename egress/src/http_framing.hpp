#pragma once

// Where an HTTP/1.1 message body ends. The proxy forwards bodies byte for byte; it only needs to
// know where each one ends, so a kept-alive connection's next request is found (and checked).

#include "expected.hpp"
#include "header_fields.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace arizuko::egress {

struct BodyFraming
{
    enum class Kind
    {
        None,
        Length,
        Chunked,
        UntilClose,
    };
    Kind kind = Kind::None;
    uint64_t length = 0;
};

// A request with both Transfer-Encoding and Content-Length, an unknown transfer coding, or
// conflicting lengths is refused: two parties could read its end differently.
Expected<BodyFraming> requestBodyFraming(const HeaderFields &fields);
Expected<BodyFraming> responseBodyFraming(std::string_view requestMethod, int status,
                                          const HeaderFields &fields);

// Follows the chunked coding without changing it, trailers and final CRLF included.
class ChunkedDecoder
{
public:
    // Returns how many leading bytes of `bytes` belong to the chunked body.
    size_t feed(std::string_view bytes)
    {
        return feed(bytes, [](size_t, size_t) {});
    }
    // The same, calling `onData(offset, length)` for each run of chunk data within `bytes` (the
    // body's content without its framing: what the response scrubber reads).
    template<typename OnData>
    size_t feed(std::string_view bytes, OnData &&onData)
    {
        size_t used = 0;
        while (used < bytes.size() && state_ != State::Done && state_ != State::Failed) {
            if (state_ == State::Data) {
                const auto take =
                    static_cast<size_t>(std::min<uint64_t>(chunkRemaining_, bytes.size() - used));
                onData(used, take);
                used += take;
                chunkRemaining_ -= take;
                if (chunkRemaining_ == 0)
                    state_ = State::DataCarriageReturn;
                continue;
            }
            state_ = step(bytes[used]);
            if (state_ != State::Failed)
                ++used;
        }
        return used;
    }
    bool done() const { return state_ == State::Done; }
    bool failed() const { return state_ == State::Failed; }

private:
    enum class State
    {
        Size,
        Extension,
        SizeLineFeed,
        Data,
        DataCarriageReturn,
        DataLineFeed,
        TrailerLineStart,
        TrailerLine,
        TrailerLineFeed,
        FinalLineFeed,
        Done,
        Failed,
    };
    State step(char c);

    State state_ = State::Size;
    uint64_t chunkRemaining_ = 0;
    int sizeDigits_ = 0;
    size_t lineLength_ = 0;
    size_t trailerBytes_ = 0;
};

// Tracks one body of the given framing as its bytes pass through.
class BodyReader
{
public:
    explicit BodyReader(BodyFraming framing = {});

    // Returns how many leading bytes of `bytes` belong to the body; the rest follows it.
    size_t feed(std::string_view bytes);
    bool done() const;
    bool failed() const { return framing_.kind == BodyFraming::Kind::Chunked && chunked_.failed(); }
    bool endsAtClose() const { return framing_.kind == BodyFraming::Kind::UntilClose; }

private:
    BodyFraming framing_;
    uint64_t remaining_ = 0;
    ChunkedDecoder chunked_;
};

} // namespace arizuko::egress
