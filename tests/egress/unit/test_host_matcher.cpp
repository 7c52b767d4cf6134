// The host-matching table (egress-hosts.tsv) run through the proxy's own flag parsing and request
// host parsing, plus the matcher's properties the table cannot express.

#include "config.hpp"
#include "host_matcher.hpp"
#include "request_head.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace arizuko::egress {
namespace {

struct HostCase
{
    int line = 0;
    std::string allow;
    std::string deny;
    std::string host;
    std::string expected;
};

std::vector<HostCase> readTable(const std::string &path)
{
    std::ifstream file(path);
    std::vector<HostCase> cases;
    std::string text;
    for (int line = 1; std::getline(file, text); ++line) {
        if (text.empty() || text.front() == '#')
            continue;
        std::vector<std::string> columns;
        std::stringstream stream(text);
        for (std::string column; std::getline(stream, column, '\t');)
            columns.push_back(column);
        EXPECT_EQ(columns.size(), 4u) << path << ":" << line << ": " << text;
        if (columns.size() == 4)
            cases.push_back({line, columns[0], columns[1], columns[2], columns[3]});
    }
    return cases;
}

std::string decide(const HostCase &hostCase)
{
    std::vector<std::string> arguments;
    if (hostCase.allow == "ALL")
        arguments.push_back("--allow-all");
    else if (hostCase.allow != "-")
        arguments.insert(arguments.end(), {"--allow", hostCase.allow});
    if (hostCase.deny != "-")
        arguments.insert(arguments.end(), {"--deny", hostCase.deny});
    const ConfigOutcome outcome =
        parseConfig(arguments, [](std::string_view) { return std::nullopt; });
    if (outcome.kind != ConfigOutcome::Kind::Run)
        return "config refused: " + outcome.message;
    const auto host = parseRequestHost(hostCase.host);
    if (!host)
        return "deny";
    return outcome.config.policy.decide(host.value()) == HostVerdict::Allowed ? "allow" : "deny";
}

TEST(HostMatcherTable, EveryCaseDecidesAsExpected)
{
    const auto cases = readTable(EGRESS_HOSTS_TSV);
    ASSERT_GE(cases.size(), 85u) << "table missing or truncated: " << EGRESS_HOSTS_TSV;
    for (const HostCase &hostCase : cases) {
        EXPECT_EQ(decide(hostCase), hostCase.expected)
            << "egress-hosts.tsv:" << hostCase.line << ": allow '" << hostCase.allow << "' deny '"
            << hostCase.deny << "' host '" << hostCase.host << "'";
    }
}

TEST(HostMatcher, DenyWinsOverAllowAndAllowAll)
{
    HostPolicy policy;
    policy.allowList().add(parseHostEntry("github.com").value());
    policy.denyList().add(parseHostEntry("api.github.com").value());
    EXPECT_EQ(policy.decide(*normalizeHost("api.github.com")), HostVerdict::Denied);
    policy.setAllowAll(true);
    EXPECT_EQ(policy.decide(*normalizeHost("x.api.github.com")), HostVerdict::Denied);
    EXPECT_EQ(policy.decide(*normalizeHost("gitlab.com")), HostVerdict::Allowed);
}

TEST(HostMatcher, EmptyPolicyAllowsNothing)
{
    const HostPolicy policy;
    EXPECT_EQ(policy.decide(*normalizeHost("localhost")), HostVerdict::NotAllowed);
    EXPECT_EQ(policy.decide(*normalizeHost("127.0.0.1")), HostVerdict::NotAllowed);
}

TEST(HostMatcher, EntriesAreNormalised)
{
    EXPECT_EQ(parseHostEntry("  *.Example.COM.  ").value(), (HostName{"example.com", false}));
    EXPECT_EQ(parseHostEntry("[0::1]").value(), (HostName{"::1", true}));
    EXPECT_EQ(parseHostEntry("::FFFF:1.2.3.4").value(), (HostName{"::ffff:1.2.3.4", true}));
    EXPECT_EQ(parseHostEntry("10.0.0.1.").value(), (HostName{"10.0.0.1", true}));
}

TEST(HostMatcher, MalformedEntriesAreRefused)
{
    for (const char *entry :
         {"", "*", "*.", ".", "a..b", ".example.com", "exa mple.com", "ex!ample.com", "[::1",
          "[github.com]", "::g", "http://github.com", "github.com/path", "github.com:443",
          "user@github.com", "[fe80::1%eth0]"}) {
        EXPECT_FALSE(parseHostEntry(entry)) << "'" << entry << "'";
    }
    EXPECT_FALSE(parseHostEntry(std::string(64, 'a') + ".com")) << "64-byte label";
    EXPECT_TRUE(parseHostEntry(std::string(63, 'a') + ".com")) << "63-byte label";
    std::string longName;
    while (longName.size() < 251)
        longName += "abcdefghi.";
    EXPECT_FALSE(parseHostEntry(longName + "com")) << "name over 253 bytes";
}

TEST(HostMatcher, RequestHostsRefuseWhatAResolverWouldReadAsAnAddress)
{
    for (const char *host : {"127.1", "0x7f.1", "1.2.3", "4294967295", "01.2.3.4", "a.0x10"})
        EXPECT_FALSE(parseRequestHost(host)) << host;
    for (const char *host : {"1.2.3.4", "a1.example", "123.example", "[::1]"})
        EXPECT_TRUE(parseRequestHost(host)) << host;
}

} // namespace
} // namespace arizuko::egress
