// Flags and EGRESS_* variables: defaults, precedence, list syntax, and that every bad value is an
// error naming the flag (or variable) and the value.

#include "config.hpp"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>

namespace arizuko::egress {
namespace {

using namespace std::chrono_literals;

ConfigOutcome parse(std::vector<std::string> arguments, std::map<std::string, std::string> env = {})
{
    return parseConfig(arguments, [env](std::string_view name) -> std::optional<std::string> {
        const auto found = env.find(std::string(name));
        if (found == env.end())
            return std::nullopt;
        return found->second;
    });
}

TEST(Config, Defaults)
{
    const ConfigOutcome outcome = parse({});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    const Config &config = outcome.config;
    EXPECT_EQ(config.listen.toString(), "0.0.0.0:3128");
    EXPECT_EQ(config.policy.allowList().size(), 0u);
    EXPECT_FALSE(config.policy.allowAll());
    EXPECT_FALSE(config.client);
    EXPECT_FALSE(config.denyPrivate);
    EXPECT_FALSE(config.allowLoopback);
    EXPECT_EQ(config.maxConnections, 1024u);
    EXPECT_EQ(config.headerTimeout, 10s);
    EXPECT_EQ(config.connectTimeout, 10s);
    EXPECT_EQ(config.idleTimeout, 300s);
    EXPECT_EQ(config.drainTimeout, 5s);
    EXPECT_EQ(config.maxHeaderBytes, 16384u);
    EXPECT_FALSE(config.ask);
    EXPECT_EQ(config.askTimeout, 60s);
    EXPECT_EQ(config.askLimit, 20u);
    EXPECT_EQ(config.folder, "");
}

TEST(Config, AskFlags)
{
    const ConfigOutcome outcome =
        parse({"--ask", "--ask-timeout=0.25", "--ask-limit", "500", "--folder", "corp/my eng"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_TRUE(outcome.config.ask);
    EXPECT_EQ(outcome.config.askTimeout, 250ms);
    EXPECT_EQ(outcome.config.askLimit, 500u);
    EXPECT_EQ(outcome.config.folder, "corp/my eng");
    const ConfigOutcome fromEnvironment = parse({}, {{"EGRESS_ASK", "1"},
                                                     {"EGRESS_ASK_TIMEOUT", "5"},
                                                     {"EGRESS_ASK_LIMIT", "1"},
                                                     {"EGRESS_FOLDER", "demo"}});
    ASSERT_EQ(fromEnvironment.kind, ConfigOutcome::Kind::Run) << fromEnvironment.message;
    EXPECT_TRUE(fromEnvironment.config.ask);
    EXPECT_EQ(fromEnvironment.config.askTimeout, 5s);
    EXPECT_EQ(fromEnvironment.config.askLimit, 1u);
    EXPECT_EQ(fromEnvironment.config.folder, "demo");
}

TEST(Config, FlagsInBothSpellings)
{
    const ConfigOutcome outcome = parse({"--listen",
                                         "[::1]:0",
                                         "--allow=github.com,gitlab.com",
                                         "--allow",
                                         "[::1]",
                                         "--deny",
                                         "evil.com",
                                         "--client=10.213.0.2",
                                         "--deny-private",
                                         "--allow-loopback=yes",
                                         "--max-connections",
                                         "7",
                                         "--header-timeout",
                                         "0.5",
                                         "--connect-timeout=2",
                                         "--idle-timeout",
                                         "60",
                                         "--max-header-bytes",
                                         "4096",
                                         "--drain-timeout",
                                         "0",
                                         "--allow-file",
                                         "/tmp/a",
                                         "--deny-file=/tmp/d"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    const Config &config = outcome.config;
    EXPECT_EQ(config.listen.toString(), "[::1]:0");
    EXPECT_EQ(config.policy.allowList().size(), 3u);
    EXPECT_EQ(config.policy.denyList().size(), 1u);
    EXPECT_EQ(config.client->ipString(), "10.213.0.2");
    EXPECT_TRUE(config.denyPrivate);
    EXPECT_TRUE(config.allowLoopback);
    EXPECT_EQ(config.maxConnections, 7u);
    EXPECT_EQ(config.headerTimeout, 500ms);
    EXPECT_EQ(config.connectTimeout, 2s);
    EXPECT_EQ(config.idleTimeout, 60s);
    EXPECT_EQ(config.maxHeaderBytes, 4096u);
    EXPECT_EQ(config.drainTimeout, 0s);
    EXPECT_EQ(config.allowFile, "/tmp/a");
    EXPECT_EQ(config.denyFile, "/tmp/d");
}

TEST(Config, EnvironmentAppliesAndTheCommandLineWins)
{
    const ConfigOutcome outcome =
        parse({"--allow", "a.com", "--max-connections", "3"}, {{"EGRESS_ALLOW", "b.com,c.com"},
                                                               {"EGRESS_MAX_CONNECTIONS", "9"},
                                                               {"EGRESS_ALLOW_ALL", "true"},
                                                               {"EGRESS_LISTEN", "127.0.0.1:9"},
                                                               {"EGRESS_DENY_PRIVATE", "off"},
                                                               {"EGRESS_IDLE_TIMEOUT", "1.25"}});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    const Config &config = outcome.config;
    EXPECT_EQ(config.policy.allowList().size(), 1u);
    EXPECT_TRUE(config.policy.allowList().covers(*normalizeHost("a.com")));
    EXPECT_FALSE(config.policy.allowList().covers(*normalizeHost("b.com")));
    EXPECT_EQ(config.maxConnections, 3u);
    EXPECT_TRUE(config.policy.allowAll());
    EXPECT_EQ(config.listen.toString(), "127.0.0.1:9");
    EXPECT_FALSE(config.denyPrivate);
    EXPECT_EQ(config.idleTimeout, 1250ms);
}

TEST(Config, BooleanSpellings)
{
    for (const char *yes : {"1", "true", "yes", "on"})
        EXPECT_TRUE(parse({}, {{"EGRESS_DENY_PRIVATE", yes}}).config.denyPrivate) << yes;
    for (const char *no : {"0", "false", "no", "off"})
        EXPECT_FALSE(parse({"--deny-private=" + std::string(no)}).config.denyPrivate) << no;
}

TEST(Config, HelpWinsOverEverything)
{
    EXPECT_EQ(parse({"--bogus", "--help"}).kind, ConfigOutcome::Kind::Invalid);
    EXPECT_EQ(parse({"--allow", "x.com", "--help"}).kind, ConfigOutcome::Kind::Help);
    const std::string usage = usageText();
    for (const char *flag : {"--listen",
                             "--allow",
                             "--deny",
                             "--allow-file",
                             "--deny-file",
                             "--allow-all",
                             "--client",
                             "--deny-private",
                             "--allow-loopback",
                             "--max-connections",
                             "--header-timeout",
                             "--connect-timeout",
                             "--idle-timeout",
                             "--max-header-bytes",
                             "--drain-timeout",
                             "--ask",
                             "--ask-timeout",
                             "--ask-limit",
                             "--folder",
                             "--help",
                             "EGRESS_ALLOW_LOOPBACK",
                             "EGRESS_ASK"})
        EXPECT_NE(usage.find(flag), std::string::npos) << flag;
}

struct BadValue
{
    std::vector<std::string> arguments;
    std::map<std::string, std::string> env;
    std::string named; // the flag or variable the message must name
    std::string value; // the value it must quote
};

TEST(Config, BadValuesNameTheFlagAndTheValue)
{
    const BadValue cases[] = {
        {{"--listen", "3128"}, {}, "--listen", "3128"},
        {{"--listen", ":99999"}, {}, "--listen", ":99999"},
        {{"--listen", "localhost:3128"}, {}, "--listen", "localhost:3128"},
        {{"--listen", "::1:3128"}, {}, "--listen", "::1:3128"},
        {{"--listen", "1.2.3.4:"}, {}, "--listen", "1.2.3.4:"},
        {{"--allow", "github.com,exa mple.com"}, {}, "--allow", "exa mple.com"},
        {{"--allow", "a..b"}, {}, "--allow", "a..b"},
        {{"--deny", "*"}, {}, "--deny", "*"},
        {{"--deny", "http://x.com"}, {}, "--deny", "http://x.com"},
        {{"--client", "10.0.0"}, {}, "--client", "10.0.0"},
        {{"--client", "example.com"}, {}, "--client", "example.com"},
        {{"--max-connections", "0"}, {}, "--max-connections", "0"},
        {{"--max-connections", "ten"}, {}, "--max-connections", "ten"},
        {{"--max-connections", "-1"}, {}, "--max-connections", "-1"},
        {{"--max-header-bytes", "100"}, {}, "--max-header-bytes", "100"},
        {{"--header-timeout", "0"}, {}, "--header-timeout", "0"},
        {{"--header-timeout", "-1"}, {}, "--header-timeout", "-1"},
        {{"--connect-timeout", "nan"}, {}, "--connect-timeout", "nan"},
        {{"--idle-timeout", "inf"}, {}, "--idle-timeout", "inf"},
        {{"--idle-timeout", "5s"}, {}, "--idle-timeout", "5s"},
        {{"--drain-timeout", "-0.5"}, {}, "--drain-timeout", "-0.5"},
        {{"--allow-all=maybe"}, {}, "--allow-all", "maybe"},
        {{"--ask=later"}, {}, "--ask", "later"},
        {{"--ask-timeout", "0"}, {}, "--ask-timeout", "0"},
        {{"--ask-limit", "0"}, {}, "--ask-limit", "0"},
        {{"--ask-limit", "lots"}, {}, "--ask-limit", "lots"},
        {{"--folder="}, {}, "--folder", "''"},
        {{"--folder", "a\nb"}, {}, "--folder", "a\nb"},
        {{}, {{"EGRESS_ASK_TIMEOUT", "soon"}}, "EGRESS_ASK_TIMEOUT", "soon"},
        {{"--allow-file="}, {}, "--allow-file", "''"},
        {{}, {{"EGRESS_ALLOW_ALL", "2"}}, "EGRESS_ALLOW_ALL", "2"},
        {{}, {{"EGRESS_MAX_CONNECTIONS", "many"}}, "EGRESS_MAX_CONNECTIONS", "many"},
        {{}, {{"EGRESS_LISTEN", "nowhere"}}, "EGRESS_LISTEN", "nowhere"},
        {{}, {{"EGRESS_ALLOW", "bad_host!"}}, "EGRESS_ALLOW", "bad_host!"},
        {{"--unknown"}, {}, "--unknown", "--unknown"},
        {{"--listen"}, {}, "--listen", "--listen"},
        {{"allow"}, {}, "allow", "allow"},
    };
    for (const BadValue &bad : cases) {
        const ConfigOutcome outcome = parse(bad.arguments, bad.env);
        ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid) << bad.named << " " << bad.value;
        EXPECT_NE(outcome.message.find(bad.named), std::string::npos) << outcome.message;
        EXPECT_NE(outcome.message.find(bad.value), std::string::npos) << outcome.message;
    }
}

TEST(Config, RulesAndTheTurnCa)
{
    ConfigOutcome outcome = parse({"--rule", "allow GET,HEAD api.github.com /repos/acme/**",
                                   "--rule=deny * a.com /x", "--inspect-ca-fd", "7"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_EQ(outcome.config.rules.size(), 2u);
    EXPECT_EQ(outcome.config.inspectCaFd, 7);
    EXPECT_TRUE(outcome.config.rules.inspects(*normalizeHost("api.github.com")));

    // The environment holds one rule a line; the command line still wins.
    outcome = parse({}, {{"EGRESS_RULES", "allow GET a.com /**\n\n deny POST b.com /x \n"},
                         {"EGRESS_INSPECT_CA_FD", "9"}});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_EQ(outcome.config.rules.size(), 2u);
    EXPECT_EQ(outcome.config.inspectCaFd, 9);

    // The CA alone is fine (nothing inspected yet); a rule without it is not.
    EXPECT_EQ(parse({"--inspect-ca-fd", "3"}).kind, ConfigOutcome::Kind::Run);
    outcome = parse({"--rule", "allow GET a.com /**"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid);
    EXPECT_NE(outcome.message.find("--rule needs --inspect-ca-fd"), std::string::npos)
        << outcome.message;

    for (const std::string_view fd : {"0", "2", "-1", "x", ""}) {
        outcome = parse({"--inspect-ca-fd", std::string(fd)});
        ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid) << fd;
        EXPECT_NE(outcome.message.find("--inspect-ca-fd"), std::string::npos) << outcome.message;
    }
    outcome = parse({"--rule-file", "/some/rules"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid);
    EXPECT_NE(outcome.message.find("--rule-file needs --inspect-ca-fd"), std::string::npos)
        << outcome.message;
    outcome = parse({"--rule-file", "/some/rules", "--inspect-ca-fd", "3"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_EQ(outcome.config.ruleFile, "/some/rules");

    outcome = parse({"--inspect-ca-fd", "3", "--rule", "allow GET a.com repos"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid);
    EXPECT_NE(outcome.message.find("invalid value for --rule: 'allow GET a.com repos'"),
              std::string::npos)
        << outcome.message;
}

TEST(Config, SecretsDescriptor)
{
    ConfigOutcome outcome = parse({"--inspect-ca-fd", "3", "--secrets-fd", "4"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_EQ(outcome.config.secretsFd, 4);
    outcome = parse({}, {{"EGRESS_INSPECT_CA_FD", "3"}, {"EGRESS_SECRETS_FD", "5"}});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Run) << outcome.message;
    EXPECT_EQ(outcome.config.secretsFd, 5);
    // A bound host is inspected: without the turn's CA the secrets are refused.
    outcome = parse({"--secrets-fd", "4"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid);
    EXPECT_NE(outcome.message.find("--secrets-fd needs --inspect-ca-fd"), std::string::npos)
        << outcome.message;
    outcome = parse({"--inspect-ca-fd", "3", "--secrets-fd", "3"});
    ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid);
    EXPECT_NE(outcome.message.find("the same descriptor"), std::string::npos) << outcome.message;
    for (const std::string_view fd : {"0", "2", "-1", "x", ""}) {
        outcome = parse({"--inspect-ca-fd", "3", "--secrets-fd", std::string(fd)});
        ASSERT_EQ(outcome.kind, ConfigOutcome::Kind::Invalid) << fd;
        EXPECT_NE(outcome.message.find("--secrets-fd"), std::string::npos) << outcome.message;
    }
}

TEST(Config, ListFiles)
{
    const std::string path = ::testing::TempDir() + "egress-allow-list.txt";
    {
        std::ofstream file(path);
        file << "# team hosts\n github.com  # code\n\n*.Example.org.\n[::1]\n";
    }
    HostList list;
    const auto added = loadListFile(path, "--allow-file", list);
    ASSERT_TRUE(added) << added.error();
    EXPECT_EQ(added.value(), 3u);
    EXPECT_TRUE(list.covers(*normalizeHost("api.github.com")));
    EXPECT_TRUE(list.covers(*normalizeHost("www.example.org")));
    EXPECT_TRUE(list.covers(*normalizeHost("[::1]")));
    {
        std::ofstream file(path);
        file << "github.com\nnot a host\n";
    }
    const auto bad = loadListFile(path, "--allow-file", list);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("--allow-file"), std::string::npos) << bad.error();
    EXPECT_NE(bad.error().find("line 2"), std::string::npos) << bad.error();
    std::remove(path.c_str());
    const auto missing = loadListFile(path, "--deny-file", list);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("--deny-file"), std::string::npos) << missing.error();
}

} // namespace
} // namespace arizuko::egress
