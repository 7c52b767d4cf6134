// Where bodies end: Content-Length, chunked (fed in every possible split), close-delimited, and
// the heads that have no body at all.

#include "http_framing.hpp"
#include "response_head.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

using Kind = BodyFraming::Kind;

HeaderFields fields(std::initializer_list<std::pair<const char *, const char *>> list)
{
    HeaderFields result;
    for (const auto &[name, value] : list)
        result.push_back({name, value});
    return result;
}

TEST(RequestFraming, LengthChunkedOrNone)
{
    EXPECT_EQ(requestBodyFraming({}).value().kind, Kind::None);
    const auto length = requestBodyFraming(fields({{"content-length", "42"}}));
    ASSERT_TRUE(length);
    EXPECT_EQ(length->kind, Kind::Length);
    EXPECT_EQ(length->length, 42u);
    EXPECT_EQ(
        requestBodyFraming(fields({{"Content-Length", "7, 7"}, {"Content-Length", "7"}}))->length,
        7u);
    EXPECT_EQ(requestBodyFraming(fields({{"Transfer-Encoding", "Chunked"}}))->kind, Kind::Chunked);
}

TEST(RequestFraming, RefusesWhatTwoPartiesCouldReadDifferently)
{
    for (const auto &bad : {
             fields({{"Content-Length", "1"}, {"Content-Length", "2"}}),
             fields({{"Content-Length", "1, 2"}}),
             fields({{"Content-Length", "-1"}}),
             fields({{"Content-Length", "+1"}}),
             fields({{"Content-Length", "0x10"}}),
             fields({{"Content-Length", ""}}),
             fields({{"Content-Length", "99999999999999999999999"}}),
             fields({{"Transfer-Encoding", "chunked"}, {"Content-Length", "3"}}),
             fields({{"Transfer-Encoding", "gzip, chunked"}}),
             fields({{"Transfer-Encoding", "chunked, chunked"}}),
             fields({{"Transfer-Encoding", "gzip"}}),
             fields({{"Transfer-Encoding", ""}}),
         }) {
        EXPECT_FALSE(requestBodyFraming(bad)) << bad.front().name << ": " << bad.front().value;
    }
}

TEST(ResponseFraming, HeadsWithoutBody)
{
    for (const int status : {100, 101, 199, 204, 304})
        EXPECT_EQ(responseBodyFraming("GET", status, fields({{"Content-Length", "5"}}))->kind,
                  Kind::None)
            << status;
    EXPECT_EQ(responseBodyFraming("HEAD", 200, fields({{"Content-Length", "5"}}))->kind,
              Kind::None);
    EXPECT_EQ(responseBodyFraming("GET", 200, fields({{"Content-Length", "5"}}))->kind,
              Kind::Length);
    EXPECT_EQ(responseBodyFraming("GET", 205, {})->kind, Kind::UntilClose);
}

TEST(ResponseFraming, ChunkedWinsAndUnknownCodingsReadToClose)
{
    EXPECT_EQ(
        responseBodyFraming(
            "GET", 200, fields({{"Transfer-Encoding", "gzip, chunked"}, {"Content-Length", "5"}}))
            ->kind,
        Kind::Chunked);
    EXPECT_EQ(responseBodyFraming("GET", 200, fields({{"Transfer-Encoding", "gzip"}}))->kind,
              Kind::UntilClose);
    EXPECT_EQ(responseBodyFraming("GET", 200, {})->kind, Kind::UntilClose);
    EXPECT_FALSE(responseBodyFraming("GET", 200, fields({{"Content-Length", "x"}})));
}

// Feeds `body` split at every position and checks the decoder claims exactly `bodyLength` bytes.
void expectChunkedBoundary(const std::string &stream, size_t bodyLength)
{
    for (size_t split = 0; split <= stream.size(); ++split) {
        ChunkedDecoder decoder;
        size_t used = decoder.feed(std::string_view(stream).substr(0, split));
        if (used == split && !decoder.done())
            used += decoder.feed(std::string_view(stream).substr(split));
        EXPECT_FALSE(decoder.failed()) << "split at " << split;
        EXPECT_TRUE(decoder.done()) << "split at " << split;
        EXPECT_EQ(used, bodyLength) << "split at " << split;
    }
    // One byte at a time.
    ChunkedDecoder decoder;
    size_t used = 0;
    for (size_t i = 0; i < stream.size() && !decoder.done(); ++i)
        used += decoder.feed(std::string_view(stream).substr(i, 1));
    EXPECT_TRUE(decoder.done());
    EXPECT_EQ(used, bodyLength);
}

TEST(ChunkedDecoder, FindsTheEndAtEverySplit)
{
    const std::string body = "5\r\nhello\r\nA;name=value\r\n0123456789\r\n0\r\n\r\n";
    expectChunkedBoundary(body + "GET http://next/ HTTP/1.1\r\n\r\n", body.size());
    const std::string withTrailers = "1\r\nx\r\n000\r\nX-Sum: 1\r\nY: 2\r\n\r\n";
    expectChunkedBoundary(withTrailers + "NEXT", withTrailers.size());
    const std::string upper = "fF\r\n" + std::string(255, 'z') + "\r\n0\r\n\r\n";
    expectChunkedBoundary(upper, upper.size());
    const std::string extensionOnLast = "0;last\r\n\r\n";
    expectChunkedBoundary(extensionOnLast + "x", extensionOnLast.size());
}

TEST(ChunkedDecoder, RefusesMalformedCoding)
{
    for (const char *bad : {
             "\r\n",                        // no size
             "g\r\n",                       // not hex
             "-1\r\n",                      // sign
             "5\nhello\r\n0\r\n\r\n",       // bare LF after size
             "5\r\nhelloX\r\n",             // data longer than size
             "5\r\nhello\n0\r\n\r\n",       // bare LF after data
             "1000000000000000\r\n",        // 16 hex digits: too big
             "0\r\nBad trailer\nX\r\n\r\n", // bare LF in trailer
             "0\r\n\rX",                    // CR not followed by LF at the end
         }) {
        ChunkedDecoder decoder;
        decoder.feed(bad);
        EXPECT_TRUE(decoder.failed()) << ::testing::PrintToString(std::string(bad));
        EXPECT_FALSE(decoder.done());
    }
}

TEST(ChunkedDecoder, BoundsExtensionsAndTrailers)
{
    ChunkedDecoder longExtension;
    longExtension.feed("1;" + std::string(5000, 'a'));
    EXPECT_TRUE(longExtension.failed());
    ChunkedDecoder longTrailers;
    std::string trailers = "0\r\n";
    for (int i = 0; i < 2000; ++i)
        trailers += "X-Field: value\r\n";
    longTrailers.feed(trailers);
    EXPECT_TRUE(longTrailers.failed());
}

TEST(BodyReader, LengthStopsAtItsEnd)
{
    BodyReader reader(BodyFraming{Kind::Length, 5});
    EXPECT_FALSE(reader.done());
    EXPECT_EQ(reader.feed("abc"), 3u);
    EXPECT_EQ(reader.feed("deNEXT"), 2u);
    EXPECT_TRUE(reader.done());
    EXPECT_EQ(reader.feed("more"), 0u);
    BodyReader empty(BodyFraming{Kind::Length, 0});
    EXPECT_TRUE(empty.done());
    BodyReader none;
    EXPECT_TRUE(none.done());
    EXPECT_EQ(none.feed("GET"), 0u);
    BodyReader untilClose(BodyFraming{Kind::UntilClose, 0});
    EXPECT_EQ(untilClose.feed("everything"), 10u);
    EXPECT_FALSE(untilClose.done());
    EXPECT_TRUE(untilClose.endsAtClose());
}

TEST(ResponseHead, ParsesStatusLines)
{
    const auto ok = parseResponseHead("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    ASSERT_TRUE(ok) << ok.error();
    EXPECT_EQ(ok->status, 404);
    EXPECT_EQ(ok->minorVersion, 0);
    EXPECT_EQ(ok->reasonPhrase, "Not Found");
    EXPECT_EQ(parseResponseHead("HTTP/1.1 204\r\n\r\n")->status, 204);
    EXPECT_EQ(parseResponseHead("HTTP/1.1 200 \r\n\r\n")->reasonPhrase, "");
    for (const char *bad :
         {"HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n",
          "HTTP/1.1 099 Low\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n", "ICY 200 OK\r\n\r\n",
          "HTTP/1.1 200 OK\r\nBad Field\r\n\r\n", "HTTP/1.1 200 OK\r\nA: 1\r\n continued\r\n\r\n"})
        EXPECT_FALSE(parseResponseHead(bad)) << bad;
}

} // namespace
} // namespace arizuko::egress
