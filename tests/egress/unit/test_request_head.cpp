// Request heads as a client sends them to the proxy: the three target forms, and every malformed
// shape the parser must refuse rather than repair.

#include "header_fields.hpp"
#include "request_head.hpp"

#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

Expected<RequestHead> parse(const std::string &head)
{
    return parseRequestHead(head);
}

TEST(RequestHead, ConnectAuthorityForm)
{
    const auto head = parse("CONNECT api.GitHub.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n"
                            "User-Agent: curl\r\n\r\n");
    ASSERT_TRUE(head) << head.error();
    EXPECT_TRUE(head->isConnect());
    EXPECT_EQ(head->host.text, "api.github.com");
    EXPECT_FALSE(head->host.isIpLiteral);
    EXPECT_EQ(head->port, 443);
    EXPECT_EQ(head->fields.size(), 2u);
    EXPECT_EQ(head->fields[1].name, "User-Agent");
    EXPECT_EQ(head->fields[1].value, "curl");
}

TEST(RequestHead, ConnectIpLiterals)
{
    auto v6 = parse("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->host, (HostName{"::1", true}));
    EXPECT_EQ(v6->port, 8443);
    auto v6long = parse("CONNECT [2001:DB8:0:0::1]:1 HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(v6long) << v6long.error();
    EXPECT_EQ(v6long->host.text, "2001:db8::1");
    auto v4 = parse("CONNECT 127.0.0.1:65535 HTTP/1.0\r\n\r\n");
    ASSERT_TRUE(v4) << v4.error();
    EXPECT_EQ(v4->host, (HostName{"127.0.0.1", true}));
    EXPECT_EQ(v4->port, 65535);
    EXPECT_EQ(v4->minorVersion, 0);
}

TEST(RequestHead, AbsoluteForm)
{
    const auto head = parse("GET http://Example.com:8080/a/b?c=d HTTP/1.1\r\nHost: evil\r\n\r\n");
    ASSERT_TRUE(head) << head.error();
    EXPECT_EQ(head->form, TargetForm::Absolute);
    EXPECT_EQ(head->host.text, "example.com");
    EXPECT_EQ(head->port, 8080);
    EXPECT_EQ(head->authority, "Example.com:8080");
    EXPECT_EQ(head->path, "/a/b?c=d");

    const auto bare = parse("HEAD HTTP://example.com HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(bare) << bare.error();
    EXPECT_EQ(bare->port, 80);
    EXPECT_EQ(bare->path, "/");
    const auto query = parse("GET http://example.com?x=1 HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(query) << query.error();
    EXPECT_EQ(query->path, "/?x=1");
    const auto v6 = parse("POST http://[::1]:9/p HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->host.text, "::1");
    EXPECT_EQ(v6->port, 9);
    const auto emptyPort = parse("GET http://example.com:/ HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(emptyPort) << emptyPort.error();
    EXPECT_EQ(emptyPort->port, 80);
}

TEST(RequestHead, OriginFormAndHealth)
{
    const auto health = parse("GET /health HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(health);
    EXPECT_TRUE(health->isHealthCheck());
    EXPECT_FALSE(parse("GET /health?x HTTP/1.1\r\n\r\n")->isHealthCheck());
    EXPECT_FALSE(parse("POST /health HTTP/1.1\r\n\r\n")->isHealthCheck());
    EXPECT_FALSE(parse("GET http://x/health HTTP/1.1\r\n\r\n")->isHealthCheck());
}

TEST(RequestHead, RefusesMalformedHeads)
{
    const char *bad[] = {
        "GET http://example.com/ HTTP/1.1\r\n",                         // no blank line
        "\r\n\r\n",                                                     // empty request line
        "GET  http://example.com/ HTTP/1.1\r\n\r\n",                    // two spaces
        "GET http://example.com/ HTTP/1.1 \r\n\r\n",                    // trailing space
        "GET http://example.com/\r\n\r\n",                              // HTTP/0.9 style
        "GET http://example.com/ HTTP/2.0\r\n\r\n",                     // version
        "GET http://example.com/ http/1.1\r\n\r\n",                     // version case
        "G(T http://example.com/ HTTP/1.1\r\n\r\n",                     // method not a token
        "GET https://example.com/ HTTP/1.1\r\n\r\n",                    // https absolute form
        "GET ftp://example.com/ HTTP/1.1\r\n\r\n",                      // other scheme
        "GET http://user@example.com/ HTTP/1.1\r\n\r\n",                // userinfo
        "GET http://user:pw@example.com/ HTTP/1.1\r\n\r\n",             // userinfo with colon
        "GET http:///path HTTP/1.1\r\n\r\n",                            // empty host
        "GET http://exa%6dple.com/ HTTP/1.1\r\n\r\n",                   // percent-encoded host
        "GET http://example.com:0/ HTTP/1.1\r\n\r\n",                   // port 0
        "GET http://example.com:65536/ HTTP/1.1\r\n\r\n",               // port too big
        "GET http://example.com:80a/ HTTP/1.1\r\n\r\n",                 // port garbage
        "GET http://127.1/ HTTP/1.1\r\n\r\n",                           // resolver-ambiguous
        "GET * HTTP/1.1\r\n\r\n",                                       // asterisk form
        "GET http://exa\x01mple.com/ HTTP/1.1\r\n\r\n",                 // control in target
        "CONNECT example.com HTTP/1.1\r\n\r\n",                         // no port
        "CONNECT example.com: HTTP/1.1\r\n\r\n",                        // empty port
        "CONNECT example.com:-1 HTTP/1.1\r\n\r\n",                      // negative port
        "CONNECT example.com:443:1 HTTP/1.1\r\n\r\n",                   // two ports
        "CONNECT ::1:443 HTTP/1.1\r\n\r\n",                             // v6 without brackets
        "CONNECT [::1:443 HTTP/1.1\r\n\r\n",                            // unterminated bracket
        "CONNECT [::1]443 HTTP/1.1\r\n\r\n",                            // no colon after bracket
        "CONNECT [example.com]:443 HTTP/1.1\r\n\r\n",                   // name in brackets
        "CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n",                // zone id
        "CONNECT http://example.com:443 HTTP/1.1\r\n\r\n",              // scheme in authority form
        "CONNECT a..b.com:443 HTTP/1.1\r\n\r\n",                        // empty label
        "CONNECT example.com:443 HTTP/1.1\r\nHost : x\r\n\r\n",         // space before colon
        "CONNECT example.com:443 HTTP/1.1\r\nNoColon\r\n\r\n",          // no colon
        "CONNECT example.com:443 HTTP/1.1\r\n: empty\r\n\r\n",          // empty name
        "CONNECT example.com:443 HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n",  // obs-fold (space)
        "CONNECT example.com:443 HTTP/1.1\r\nA: 1\r\n\tfolded\r\n\r\n", // obs-fold (tab)
        "CONNECT example.com:443 HTTP/1.1\r\n X: 1\r\n\r\n",            // fold as first field
        "CONNECT example.com:443 HTTP/1.1\r\nA: x\ny\r\n\r\n",          // bare LF in value
        "CONNECT example.com:443 HTTP/1.1\r\nA: x\ry\r\n\r\n",          // bare CR in value
        "CONNECT example.com:443 HTTP/1.1\nA: x\r\n\r\n",               // LF-only line ending
        "CONNECT example.com:443 HTTP/1.1\r\nA: \x7f\r\n\r\n",          // DEL in value
    };
    for (const char *head : bad)
        EXPECT_FALSE(parse(head)) << "accepted: " << ::testing::PrintToString(std::string(head));
    std::string withNul = "CONNECT example.com:443 HTTP/1.1\r\nA: x";
    withNul.push_back('\0');
    withNul += "y\r\n\r\n";
    EXPECT_FALSE(parse(withNul)) << "NUL in value";
    // A NUL is no token character (the proxy's own check once took the C string's terminator
    // for one): not in a field name, not in a method.
    std::string nulInName = "CONNECT example.com:443 HTTP/1.1\r\nA";
    nulInName.push_back('\0');
    nulInName += "B: x\r\n\r\n";
    EXPECT_FALSE(parse(nulInName)) << "NUL in a field name";
    std::string nulInMethod = "GE";
    nulInMethod.push_back('\0');
    nulInMethod += "T http://e.com/ HTTP/1.1\r\n\r\n";
    EXPECT_FALSE(parse(nulInMethod)) << "NUL in the method";
}

TEST(RequestHead, FieldValuesAreTrimmedAndKeptVerbatim)
{
    const auto head = parse(
        "GET http://e.com/ HTTP/1.1\r\nX-Empty:\r\nX-Pad: \t a  b \t\r\nUTF: \xc3\xa9\r\n\r\n");
    ASSERT_TRUE(head) << head.error();
    ASSERT_EQ(head->fields.size(), 3u);
    EXPECT_EQ(head->fields[0].value, "");
    EXPECT_EQ(head->fields[1].value, "a  b");
    EXPECT_EQ(head->fields[2].value, "\xc3\xa9");
}

TEST(RequestHead, FindsTheEndOfAHead)
{
    EXPECT_FALSE(findHeadEnd("GET / HTTP/1.1\r\nA: b\r\n"));
    EXPECT_FALSE(findHeadEnd("GET / HTTP/1.1\n\n"));
    EXPECT_EQ(findHeadEnd("GET / HTTP/1.1\r\n\r\nBODY").value(), 18u);
}

TEST(RequestHead, KeepAliveFollowsVersionAndConnection)
{
    EXPECT_TRUE(clientWantsKeepAlive(parse("GET http://e.com/ HTTP/1.1\r\n\r\n").value()));
    EXPECT_FALSE(clientWantsKeepAlive(
        parse("GET http://e.com/ HTTP/1.1\r\nConnection: foo, Close\r\n\r\n").value()));
    EXPECT_FALSE(clientWantsKeepAlive(parse("GET http://e.com/ HTTP/1.0\r\n\r\n").value()));
    EXPECT_TRUE(clientWantsKeepAlive(
        parse("GET http://e.com/ HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").value()));
}

} // namespace
} // namespace arizuko::egress
