#include "http_framing.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace arizuko::egress {
namespace {

constexpr int kMaxChunkSizeDigits = 15;
constexpr size_t kMaxChunkLineLength = 4096;
constexpr size_t kMaxTrailerBytes = 16384;

std::optional<uint64_t> parseContentLength(std::string_view text)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || text.front() == '+' || text.front() == '-' || error != std::errc{} ||
        end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// Every Content-Length value (also a repeated "5, 5") must be the same number.
Expected<std::optional<uint64_t>> contentLength(const HeaderFields &fields)
{
    std::optional<uint64_t> length;
    for (const std::string_view value : fieldValues(fields, "Content-Length")) {
        const auto elements = splitList(value);
        if (elements.empty())
            return Failure{"empty Content-Length"};
        for (const std::string_view element : elements) {
            const auto parsed = parseContentLength(element);
            if (!parsed || (length && *length != *parsed))
                return Failure{"invalid or conflicting Content-Length"};
            length = parsed;
        }
    }
    return length;
}

std::vector<std::string_view> transferCodings(const HeaderFields &fields)
{
    std::vector<std::string_view> codings;
    for (const std::string_view value : fieldValues(fields, "Transfer-Encoding")) {
        for (const std::string_view element : splitList(value))
            codings.push_back(element);
    }
    return codings;
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

uint64_t hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return static_cast<uint64_t>(c - '0');
    return static_cast<uint64_t>((c | 0x20) - 'a' + 10);
}

} // namespace

Expected<BodyFraming> requestBodyFraming(const HeaderFields &fields)
{
    const auto codings = transferCodings(fields);
    auto length = contentLength(fields);
    if (!length)
        return Failure{length.error()};
    if (!fieldValues(fields, "Transfer-Encoding").empty()) {
        if (length.value())
            return Failure{"both Transfer-Encoding and Content-Length"};
        if (codings.size() != 1 || !equalsIgnoringCase(codings.front(), "chunked"))
            return Failure{"unsupported Transfer-Encoding"};
        return BodyFraming{BodyFraming::Kind::Chunked, 0};
    }
    if (length.value())
        return BodyFraming{BodyFraming::Kind::Length, *length.value()};
    return BodyFraming{};
}

Expected<BodyFraming> responseBodyFraming(std::string_view requestMethod, int status,
                                          const HeaderFields &fields)
{
    if (requestMethod == "HEAD" || status / 100 == 1 || status == 204 || status == 304)
        return BodyFraming{};
    const auto codings = transferCodings(fields);
    if (!fieldValues(fields, "Transfer-Encoding").empty()) {
        if (!codings.empty() && equalsIgnoringCase(codings.back(), "chunked"))
            return BodyFraming{BodyFraming::Kind::Chunked, 0};
        return BodyFraming{BodyFraming::Kind::UntilClose, 0};
    }
    auto length = contentLength(fields);
    if (!length)
        return Failure{length.error()};
    if (length.value())
        return BodyFraming{BodyFraming::Kind::Length, *length.value()};
    return BodyFraming{BodyFraming::Kind::UntilClose, 0};
}

ChunkedDecoder::State ChunkedDecoder::step(char c)
{
    switch (state_) {
    case State::Size:
        if (isHex(c) && sizeDigits_ < kMaxChunkSizeDigits) {
            chunkRemaining_ = chunkRemaining_ * 16 + hexValue(c);
            ++sizeDigits_;
            return State::Size;
        }
        if (sizeDigits_ == 0)
            return State::Failed;
        if (c == '\r')
            return State::SizeLineFeed;
        return (c == ';' || c == ' ' || c == '\t') ? State::Extension : State::Failed;
    case State::Extension:
        if (c == '\r')
            return State::SizeLineFeed;
        if (++lineLength_ > kMaxChunkLineLength || c == '\n' ||
            (static_cast<unsigned char>(c) < 0x20 && c != '\t'))
            return State::Failed;
        return State::Extension;
    case State::SizeLineFeed:
        if (c != '\n')
            return State::Failed;
        sizeDigits_ = 0;
        lineLength_ = 0;
        return chunkRemaining_ == 0 ? State::TrailerLineStart : State::Data;
    case State::DataCarriageReturn:
        return c == '\r' ? State::DataLineFeed : State::Failed;
    case State::DataLineFeed:
        return c == '\n' ? State::Size : State::Failed;
    case State::TrailerLineStart:
        if (c == '\r')
            return State::FinalLineFeed;
        [[fallthrough]];
    case State::TrailerLine:
        if (++trailerBytes_ > kMaxTrailerBytes || c == '\n')
            return State::Failed;
        return c == '\r' ? State::TrailerLineFeed : State::TrailerLine;
    case State::TrailerLineFeed:
        return c == '\n' ? State::TrailerLineStart : State::Failed;
    case State::FinalLineFeed:
        return c == '\n' ? State::Done : State::Failed;
    case State::Data:
    case State::Done:
    case State::Failed:
        break;
    }
    return state_;
}

BodyReader::BodyReader(BodyFraming framing)
    : framing_(framing)
    , remaining_(framing.length)
{}

size_t BodyReader::feed(std::string_view bytes)
{
    switch (framing_.kind) {
    case BodyFraming::Kind::None:
        return 0;
    case BodyFraming::Kind::Length: {
        const auto take = static_cast<size_t>(std::min<uint64_t>(remaining_, bytes.size()));
        remaining_ -= take;
        return take;
    }
    case BodyFraming::Kind::Chunked:
        return chunked_.feed(bytes);
    case BodyFraming::Kind::UntilClose:
        return bytes.size();
    }
    return 0;
}

bool BodyReader::done() const
{
    switch (framing_.kind) {
    case BodyFraming::Kind::None:
        return true;
    case BodyFraming::Kind::Length:
        return remaining_ == 0;
    case BodyFraming::Kind::Chunked:
        return chunked_.done();
    case BodyFraming::Kind::UntilClose:
        return false;
    }
    return true;
}

} // namespace arizuko::egress
