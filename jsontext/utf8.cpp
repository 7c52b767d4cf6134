#include "jsontext/utf8.h"

namespace arizuko::utf8 {
namespace {

bool isContinuation(unsigned char byte)
{
    return (byte & 0xC0) == 0x80;
}

} // namespace

std::optional<char32_t> decode(std::string_view text, std::size_t &position)
{
    const auto byteAt = [&](std::size_t index) { return static_cast<unsigned char>(text[index]); };
    const unsigned char lead = byteAt(position);
    if (lead < 0x80) {
        ++position;
        return lead;
    }
    std::size_t length = 0;
    char32_t codePoint = 0;
    // The second byte's range is narrower after some leads: that is what
    // rules out overlong forms, surrogates and values above U+10FFFF.
    unsigned char secondLow = 0x80;
    unsigned char secondHigh = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        codePoint = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        codePoint = lead & 0x0F;
        secondLow = lead == 0xE0 ? 0xA0 : 0x80;
        secondHigh = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        codePoint = lead & 0x07;
        secondLow = lead == 0xF0 ? 0x90 : 0x80;
        secondHigh = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
        return std::nullopt;
    }
    if (position + length > text.size())
        return std::nullopt;
    const unsigned char second = byteAt(position + 1);
    if (second < secondLow || second > secondHigh)
        return std::nullopt;
    for (std::size_t index = 1; index < length; ++index) {
        const unsigned char byte = byteAt(position + index);
        if (!isContinuation(byte))
            return std::nullopt;
        codePoint = (codePoint << 6) | (byte & 0x3F);
    }
    position += length;
    return codePoint;
}

void append(std::string &out, char32_t codePoint)
{
    const auto push = [&](unsigned value) { out.push_back(static_cast<char>(value)); };
    if (codePoint < 0x80) {
        push(codePoint);
    } else if (codePoint < 0x800) {
        push(0xC0 | (codePoint >> 6));
        push(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
        push(0xE0 | (codePoint >> 12));
        push(0x80 | ((codePoint >> 6) & 0x3F));
        push(0x80 | (codePoint & 0x3F));
    } else {
        push(0xF0 | (codePoint >> 18));
        push(0x80 | ((codePoint >> 12) & 0x3F));
        push(0x80 | ((codePoint >> 6) & 0x3F));
        push(0x80 | (codePoint & 0x3F));
    }
}

std::size_t boundaryAtOrBefore(std::string_view text, std::size_t limit)
{
    if (limit >= text.size())
        return text.size();
    std::size_t cut = limit;
    // A sequence is at most four bytes, so at most three continuation bytes
    // can follow the cut; back up to their lead byte.
    while (cut > 0 && limit - cut < 3 && isContinuation(static_cast<unsigned char>(text[cut])))
        --cut;
    if (cut == 0 || isContinuation(static_cast<unsigned char>(text[cut])))
        return limit; // not UTF-8 here anyway: cut where asked
    return cut;
}

} // namespace arizuko::utf8
