// The heads the proxy sends on: origin form upstream, hop-by-hop fields dropped both ways, framing
// fields kept, and the proxy's own Connection handling.

#include "forward_head.hpp"
#include "reason.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

TEST(ForwardHead, UpstreamRequestIsOriginFormWithoutHopByHopFields)
{
    const auto request = parseRequestHead("POST http://Example.com:8080/api?q=1 HTTP/1.0\r\n"
                                          "Host: attacker.example\r\n"
                                          "Connection: keep-alive, X-Secret-Hop\r\n"
                                          "Keep-Alive: timeout=5\r\n"
                                          "Proxy-Connection: keep-alive\r\n"
                                          "Proxy-Authorization: Basic abc\r\n"
                                          "TE: trailers\r\n"
                                          "Trailer: X-Sum\r\n"
                                          "Upgrade: websocket\r\n"
                                          "X-Secret-Hop: 1\r\n"
                                          "Transfer-Encoding: chunked\r\n"
                                          "X-End-To-End: kept\r\n"
                                          "\r\n");
    ASSERT_TRUE(request) << request.error();
    EXPECT_EQ(buildUpstreamRequestHead(request.value()), "POST /api?q=1 HTTP/1.1\r\n"
                                                         "Host: Example.com:8080\r\n"
                                                         "Transfer-Encoding: chunked\r\n"
                                                         "X-End-To-End: kept\r\n"
                                                         "Connection: close\r\n"
                                                         "\r\n");
}

TEST(ForwardHead, FramingFieldsSurviveEvenWhenConnectionNamesThem)
{
    const HeaderFields fields{{"Connection", "Content-Length, Transfer-Encoding, X-A"},
                              {"Content-Length", "3"}};
    EXPECT_FALSE(isHopByHopField("Content-Length", fields));
    EXPECT_FALSE(isHopByHopField("transfer-encoding", fields));
    EXPECT_TRUE(isHopByHopField("x-a", fields));
    EXPECT_TRUE(isHopByHopField("PROXY-AUTHENTICATE", fields));
    EXPECT_FALSE(isHopByHopField("Host", fields));
}

TEST(ForwardHead, ClientResponseCarriesTheProxysConnectionHandling)
{
    const auto response = parseResponseHead("HTTP/1.0 302 Found\r\n"
                                            "Location: http://elsewhere/\r\n"
                                            "Connection: close, X-Hop\r\n"
                                            "X-Hop: 1\r\n"
                                            "Proxy-Authenticate: Basic\r\n"
                                            "Content-Length: 0\r\n\r\n");
    ASSERT_TRUE(response) << response.error();
    const std::string kept = buildClientResponseHead(response.value(), true, false);
    EXPECT_EQ(kept, "HTTP/1.1 302 Found\r\n"
                    "Location: http://elsewhere/\r\n"
                    "Content-Length: 0\r\n"
                    "\r\n");
    EXPECT_NE(buildClientResponseHead(response.value(), false, false).find("Connection: close\r\n"),
              std::string::npos);
    EXPECT_NE(buildClientResponseHead(response.value(), true, true).find("Connection: keep-alive"),
              std::string::npos);
}

TEST(ErrorResponse, CarriesTheReasonHeaderAndOneLineBody)
{
    const std::string response = buildErrorResponse(Reason::HostNotAllowed, "evil.com\r\nX: y");
    EXPECT_TRUE(response.starts_with("HTTP/1.1 403 Forbidden\r\n")) << response;
    EXPECT_NE(response.find("\r\nX-Arizuko-Egress-Reason: host-not-allowed\r\n"),
              std::string::npos);
    EXPECT_NE(response.find("\r\nConnection: close\r\n"), std::string::npos);
    const std::string body = response.substr(response.find("\r\n\r\n") + 4);
    EXPECT_EQ(body, "arizuko-egress: host-not-allowed: evil.com  X: y\n");
    EXPECT_NE(response.find("Content-Length: " + std::to_string(body.size()) + "\r\n"),
              std::string::npos);
}

TEST(ErrorResponse, NamesTheHostAndHowToAllowIt)
{
    const std::string detail =
        "example.com is not on this turn's allowlist. " + allowHint("example.com", "demo");
    const std::string response = buildErrorResponse(Reason::HostNotAllowed, detail, "example.com");
    EXPECT_NE(response.find("\r\nX-Arizuko-Egress-Reason: host-not-allowed\r\n"),
              std::string::npos);
    EXPECT_NE(response.find("\r\nX-Arizuko-Egress-Host: example.com\r\n"), std::string::npos);
    EXPECT_EQ(response.substr(response.find("\r\n\r\n") + 4),
              "arizuko-egress: host-not-allowed: example.com is not on this turn's allowlist. The "
              "user can allow it in Arizuko's Network tab or with: arizukoctl network allow demo "
              "example.com\n");
    // Without a request host (an unparsable head) there is no host header.
    EXPECT_EQ(buildErrorResponse(Reason::BadRequest, "x").find("X-Arizuko-Egress-Host"),
              std::string::npos);
}

TEST(ErrorResponse, AllowHintQuotesTheFolderForAShell)
{
    EXPECT_EQ(allowHint("a.com", ""), "The user can allow it in Arizuko's Network tab or with: "
                                      "arizukoctl network allow <folder> a.com");
    EXPECT_TRUE(allowHint("a.com", "corp/eng").ends_with(" allow corp/eng a.com"));
    EXPECT_TRUE(allowHint("a.com", "my eng").ends_with(" allow 'my eng' a.com"));
    EXPECT_TRUE(allowHint("a.com", "it's").ends_with(" allow 'it'\\''s' a.com"));
    EXPECT_TRUE(allowHint("a.com", "$(rm -rf ~)").ends_with(" allow '$(rm -rf ~)' a.com"));
}

TEST(ErrorResponse, StatusPerReason)
{
    const std::pair<Reason, int> expected[] = {
        {Reason::ClientNotAllowed, 403}, {Reason::HostNotAllowed, 403},
        {Reason::HostDenied, 403},       {Reason::PrivateAddress, 403},
        {Reason::ResolveFailed, 502},    {Reason::ConnectFailed, 502},
        {Reason::ConnectTimeout, 504},   {Reason::BadRequest, 400},
        {Reason::HeadersTooLarge, 431},  {Reason::ConnectionLimit, 503},
        {Reason::BadResponse, 502},      {Reason::HeaderTimeout, 408},
        {Reason::Starting, 503},         {Reason::UserDenied, 403},
        {Reason::NoAnswer, 403},         {Reason::AskLimit, 403},
    };
    for (const auto &[reason, status] : expected) {
        EXPECT_EQ(reasonStatus(reason), status) << reasonCode(reason);
        EXPECT_TRUE(buildErrorResponse(reason, "x")
                        .starts_with("HTTP/1.1 " + std::to_string(status) + " "));
    }
}

} // namespace
} // namespace arizuko::egress
