// Scrubbing values from responses: every occurrence becomes as many '*', in heads and in bodies
// streamed in pieces, across read boundaries and across the chunks of a chunked body.

#include "value_scrubber.hpp"

#include <cstdio>
#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

const std::string kValue = "SECRET-value-42";
const std::string kStars(kValue.size(), '*');

// Feeds `pieces` one by one, then finishes.
std::string streamed(const ValueScrubber &scrubber, BodyFraming framing,
                     const std::vector<std::string> &pieces)
{
    BodyScrubber body(scrubber, framing);
    std::string out;
    for (const std::string &piece : pieces)
        body.feed(piece, out);
    body.finish(out);
    return out;
}

// Every way of cutting `text` in two, and in single bytes.
std::vector<std::vector<std::string>> cuttings(const std::string &text)
{
    std::vector<std::vector<std::string>> all;
    for (size_t at = 0; at <= text.size(); ++at)
        all.push_back({text.substr(0, at), text.substr(at)});
    std::vector<std::string> bytes;
    for (const char c : text)
        bytes.emplace_back(1, c);
    all.push_back(bytes);
    return all;
}

TEST(ValueScrubber, ReplacesEveryOccurrenceWithTheSameLength)
{
    const ValueScrubber scrubber({kValue, "short"});
    std::string text = kValue + " and " + kValue + kValue + " short";
    scrubber.scrub(text);
    EXPECT_EQ(text, kStars + " and " + kStars + kStars + " *****");
    EXPECT_EQ(scrubber.longest(), kValue.size());
}

TEST(ValueScrubber, ScrubsFieldValuesButNotFraming)
{
    const ValueScrubber scrubber({"12345678"});
    HeaderFields fields{{"Content-Length", "12345678"},
                        {"Transfer-Encoding", "12345678"},
                        {"X-Echo", "id=12345678"}};
    scrubber.scrubFields(fields);
    EXPECT_EQ(fields[0].value, "12345678");
    EXPECT_EQ(fields[1].value, "12345678");
    EXPECT_EQ(fields[2].value, "id=********");
}

TEST(BodyScrubber, FindsAValueSplitAtEveryReadBoundary)
{
    const ValueScrubber scrubber({kValue});
    const std::string body = "before " + kValue + " between " + kValue + " after";
    const std::string expected = "before " + kStars + " between " + kStars + " after";
    for (const auto &pieces : cuttings(body)) {
        EXPECT_EQ(streamed(scrubber, {BodyFraming::Kind::Length, body.size()}, pieces), expected)
            << pieces.size() << " pieces, first " << pieces[0].size();
        EXPECT_EQ(streamed(scrubber, {BodyFraming::Kind::UntilClose, 0}, pieces), expected);
    }
}

TEST(BodyScrubber, KeepsBackNoMoreThanTheLongestFormLessOne)
{
    const ValueScrubber scrubber({kValue});
    BodyScrubber body(scrubber, {BodyFraming::Kind::Length, 100});
    std::string out;
    body.feed(std::string(50, 'a'), out);
    EXPECT_EQ(out.size(), 50 - (kValue.size() - 1));
    body.feed("S", out);
    EXPECT_EQ(out.size(), 51 - (kValue.size() - 1));
    body.finish(out);
    EXPECT_EQ(out, std::string(50, 'a') + "S");
}

// `data` in chunks of the given sizes (the last takes the rest), with a trailer.
std::string chunkedBody(const std::string &data, const std::vector<size_t> &sizes)
{
    std::string out;
    size_t at = 0;
    for (size_t i = 0; at < data.size(); ++i) {
        const size_t size = i < sizes.size() ? sizes[i] : data.size() - at;
        char line[32];
        std::snprintf(line, sizeof(line), "%zx%s\r\n", size, i == 1 ? ";ext=1" : "");
        out += line + data.substr(at, size) + "\r\n";
        at += size;
    }
    return out + "0\r\nX-Trailer: t\r\n\r\n";
}

TEST(BodyScrubber, FindsAValueSplitAcrossChunksAndKeepsTheFraming)
{
    const ValueScrubber scrubber({kValue});
    const std::string data = "ab" + kValue + "cd" + kValue;
    const std::string scrubbedData = "ab" + kStars + "cd" + kStars;
    for (const std::vector<size_t> &sizes : std::vector<std::vector<size_t>>{
             {3, 4, 1, 1, 20}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {17, 2}}) {
        const std::string body = chunkedBody(data, sizes);
        const std::string expected = chunkedBody(scrubbedData, sizes);
        for (const auto &pieces : cuttings(body)) {
            const std::string out = streamed(scrubber, {BodyFraming::Kind::Chunked, 0}, pieces);
            ASSERT_EQ(out, expected) << "chunks " << sizes.size() << ", pieces " << pieces.size()
                                     << ", first " << pieces[0].size();
            // Still one well-framed chunked body.
            ChunkedDecoder decoder;
            EXPECT_EQ(decoder.feed(out), out.size());
            EXPECT_TRUE(decoder.done());
        }
    }
}

TEST(BodyScrubber, WithoutFormsPassesBytesOn)
{
    const ValueScrubber none;
    EXPECT_EQ(streamed(none, {BodyFraming::Kind::Chunked, 0}, {"1\r\na\r\n", "0\r\n\r\n"}),
              "1\r\na\r\n0\r\n\r\n");
}

} // namespace
} // namespace arizuko::egress
