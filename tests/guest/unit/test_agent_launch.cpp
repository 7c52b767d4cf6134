// What the guest executes for a turn: argv, environment, identity. This is
// the contract with Claude Code (proxy, gateway, telemetry off, sandbox).

#include "agent_launch.h"
#include "agent_profile.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace arizuko::guest;

namespace {

const std::string kToolsConfig =
    R"({"mcpServers":{"arizuko":{"type":"http","url":"http://10.213.0.1:8080/mcp",)"
    R"("headers":{"Authorization":"Bearer turn-token"}}}})";

TurnSpec claudeTurn()
{
    TurnSpec spec;
    spec.turnId = "t9";
    spec.folder = "corp/eng";
    spec.topic = "main";
    spec.agent = AgentKind::Claude;
    spec.prompt = "say hi";
    spec.proxyUrl = "http://10.213.0.1:3128";
    spec.gatewayUrl = "http://10.213.0.1:8080";
    spec.gatewayToken = "turn-token";
    spec.timeoutSeconds = 600;
    return spec;
}

std::vector<std::string> valuesOf(const AgentLaunch &launch, const std::string &name)
{
    std::vector<std::string> values;
    for (const std::string &entry : launch.environment) {
        if (entry.rfind(name + "=", 0) == 0)
            values.push_back(entry.substr(name.size() + 1));
    }
    return values;
}

std::string valueOf(const AgentLaunch &launch, const std::string &name)
{
    const auto values = valuesOf(launch, name);
    EXPECT_EQ(values.size(), 1u) << name << " must be set exactly once";
    return values.empty() ? "" : values.front();
}

} // namespace

TEST(AgentLaunch, CommandRunsThroughTheShell)
{
    TurnSpec spec;
    spec.agent = AgentKind::Command;
    spec.command = "uname -sr; echo hi >&2";
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.argv, (std::vector<std::string>{"/bin/sh", "-c", "uname -sr; echo hi >&2"}));
    EXPECT_EQ(launch.workingDirectory, "/home/agent");
    EXPECT_EQ(launch.uid, 1000u);
    EXPECT_EQ(launch.gid, 1000u);
    EXPECT_TRUE(valuesOf(launch, "HTTPS_PROXY").empty()) << "no proxy named, none set";
    EXPECT_TRUE(valuesOf(launch, "ANTHROPIC_API_KEY").empty());
}

TEST(AgentLaunch, ClaudeInPrintModeWithStreamJson)
{
    const AgentLaunch launch = buildAgentLaunch(claudeTurn());
    EXPECT_EQ(launch.argv,
              (std::vector<std::string>{"/usr/local/bin/claude", "-p", "say hi", "--output-format",
                                        "stream-json", "--verbose", "--mcp-config", kToolsConfig,
                                        "--strict-mcp-config", "--dangerously-skip-permissions"}));
}

TEST(AgentLaunch, ToolsAreTheGatewaysMcpEndpointAndNothingElse)
{
    TurnSpec spec = claudeTurn();
    spec.gatewayToken = "tok\"en";
    const AgentLaunch launch = buildAgentLaunch(spec);
    const auto at = std::find(launch.argv.begin(), launch.argv.end(), "--mcp-config");
    ASSERT_NE(at, launch.argv.end());
    EXPECT_EQ(*(at + 1), "{\"mcpServers\":{\"arizuko\":{\"type\":\"http\",\"url\":"
                         "\"http://10.213.0.1:8080/mcp\",\"headers\":{\"Authorization\":"
                         "\"Bearer tok\\\"en\"}}}}")
        << "a token is quoted as JSON, whatever it holds";
    spec.gatewayToken.clear();
    const AgentLaunch without = buildAgentLaunch(spec);
    EXPECT_EQ(std::count(without.argv.begin(), without.argv.end(), "--mcp-config"), 0)
        << "no token, no tool server";
}

TEST(AgentLaunch, CheckedSkillsComeThroughAnAddedDirectory)
{
    TurnSpec spec = claudeTurn();
    const AgentLaunch without = buildAgentLaunch(spec);
    EXPECT_EQ(std::count(without.argv.begin(), without.argv.end(), "--add-dir"), 0);
    spec.skills = true;
    const AgentLaunch launch = buildAgentLaunch(spec);
    const auto at = std::find(launch.argv.begin(), launch.argv.end(), "--add-dir");
    ASSERT_NE(at, launch.argv.end());
    EXPECT_EQ(*(at + 1), "/run/arizuko-skills");
}

TEST(AgentLaunch, ClaudeResumesTheSessionAndPicksTheModel)
{
    TurnSpec spec = claudeTurn();
    spec.sessionId = "5b1c";
    spec.model = "claude-sonnet";
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.argv,
              (std::vector<std::string>{"/usr/local/bin/claude", "-p", "say hi", "--output-format",
                                        "stream-json", "--verbose", "--resume", "5b1c", "--model",
                                        "claude-sonnet", "--mcp-config", kToolsConfig,
                                        "--strict-mcp-config", "--dangerously-skip-permissions"}));
}

TEST(AgentLaunch, ClaudeStartsANewSessionUnderTheTopicsId)
{
    TurnSpec spec = claudeTurn();
    spec.sessionId = "9a2e";
    spec.sessionMode = SessionMode::New;
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(std::count(launch.argv.begin(), launch.argv.end(), "--resume"), 0)
        << "a first turn cannot resume: Claude Code fails on a session with no file";
    const auto at = std::find(launch.argv.begin(), launch.argv.end(), "--session-id");
    ASSERT_NE(at, launch.argv.end());
    EXPECT_EQ(*(at + 1), "9a2e");
}

TEST(AgentLaunch, PromptStaysOneArgumentWhateverItHolds)
{
    TurnSpec spec = claudeTurn();
    spec.prompt = "--resume evil; rm -rf ~ \"quoted\"\nnext line";
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.argv.at(2), spec.prompt);
    EXPECT_EQ(std::count(launch.argv.begin(), launch.argv.end(), "--resume"), 0);
}

TEST(AgentLaunch, EnvironmentPointsAtProxyAndGatewayOnly)
{
    const AgentLaunch launch = buildAgentLaunch(claudeTurn());
    for (const char *name : {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"})
        EXPECT_EQ(valueOf(launch, name), "http://10.213.0.1:3128") << name;
    EXPECT_EQ(valueOf(launch, "NO_PROXY"), "10.213.0.1");
    EXPECT_EQ(valueOf(launch, "no_proxy"), "10.213.0.1");
    EXPECT_EQ(valueOf(launch, "ANTHROPIC_BASE_URL"), "http://10.213.0.1:8080");
    EXPECT_EQ(valueOf(launch, "ANTHROPIC_API_KEY"), "turn-token");
    EXPECT_EQ(valueOf(launch, "DISABLE_TELEMETRY"), "1");
    EXPECT_EQ(valueOf(launch, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), "1");
    EXPECT_EQ(valueOf(launch, "IS_SANDBOX"), "1");
    EXPECT_EQ(valueOf(launch, "SSL_CERT_FILE"), "/etc/ssl/certs/ca-certificates.crt");
    EXPECT_EQ(valueOf(launch, "HOME"), "/home/agent");
    EXPECT_EQ(valueOf(launch, "SHELL"), "/bin/bash") << "Claude Code needs bash or zsh";
    EXPECT_EQ(valueOf(launch, "ARIZUKO_TURN_ID"), "t9");
    EXPECT_EQ(valueOf(launch, "ARIZUKO_FOLDER"), "corp/eng");
    EXPECT_EQ(valueOf(launch, "PATH"), "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
}

TEST(AgentLaunch, ShellEnvSecretsJoinTheEnvironment)
{
    TurnSpec spec = claudeTurn();
    spec.environment = {{"GITHUB_TOKEN", "ghp_x"}};
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(valueOf(launch, "GITHUB_TOKEN"), "ghp_x");
    EXPECT_TRUE(valuesOf(buildAgentLaunch(claudeTurn()), "GITHUB_TOKEN").empty());
}

TEST(AgentLaunch, TheHostsUidAndGidAreUsed)
{
    TurnSpec spec = claudeTurn();
    spec.uid = 1234;
    spec.gid = 4321;
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.uid, 1234u);
    EXPECT_EQ(launch.gid, 4321u);
}

TEST(AgentLaunch, RootIsPassedOnWhenTheHostAsksForIt)
{
    TurnSpec spec = claudeTurn();
    spec.uid = 0;
    spec.gid = 0;
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.uid, 0u);
    EXPECT_EQ(launch.gid, 0u);
}

// Codex and pi run as their own launch describes (agent_kinds.h), on top
// of the common environment, with their files to write; the Anthropic
// variables are Claude Code's and not theirs (pi sets its key itself).
TEST(AgentLaunch, CodexAndPiRunTheirOwnLaunchOnTheCommonEnvironment)
{
    for (const AgentKind kind : {AgentKind::Codex, AgentKind::Pi}) {
        TurnSpec spec = claudeTurn();
        spec.agent = kind;
        const AgentLaunch launch = buildAgentLaunch(spec);
        const KindLaunch own = kind == AgentKind::Codex ? codexLaunch(spec) : piLaunch(spec);
        EXPECT_EQ(launch.argv, own.argv);
        for (const std::string &entry : own.environment)
            EXPECT_NE(std::find(launch.environment.begin(), launch.environment.end(), entry),
                      launch.environment.end())
                << entry;
        EXPECT_EQ(launch.files.size(), own.files.size());
        EXPECT_EQ(launch.homeDirectories, own.homeDirectories);
        EXPECT_EQ(launch.links.size(), own.links.size());
        EXPECT_EQ(valueOf(launch, "HTTPS_PROXY"), "http://10.213.0.1:3128");
        EXPECT_EQ(valueOf(launch, "NO_PROXY"), "10.213.0.1");
        EXPECT_EQ(valueOf(launch, "HOME"), "/home/agent");
        EXPECT_TRUE(valuesOf(launch, "ANTHROPIC_BASE_URL").empty());
        EXPECT_EQ(valuesOf(launch, "ANTHROPIC_API_KEY").size(), kind == AgentKind::Pi ? 1u : 0u);
        EXPECT_EQ(launch.uid, 1000u);
    }
}

TEST(UrlHost, TakesTheHostOutOfAUrl)
{
    EXPECT_EQ(urlHost("http://10.213.0.1:8080"), "10.213.0.1");
    EXPECT_EQ(urlHost("http://10.213.0.1:8080/v1?x=1"), "10.213.0.1");
    EXPECT_EQ(urlHost("https://gateway.local/"), "gateway.local");
    EXPECT_EQ(urlHost("http://user:secret@10.0.0.1:1"), "10.0.0.1");
    EXPECT_EQ(urlHost("http://[fd00::1]:8080/"), "fd00::1");
    EXPECT_THROW(urlHost("10.213.0.1:8080"), SpecError);
    EXPECT_THROW(urlHost("http://:8080"), SpecError);
    EXPECT_THROW(urlHost("http://[fd00::1"), SpecError);
}

TEST(AgentLaunch, AStartedAgentReadsItsPromptFromStdin)
{
    TurnSpec spec = claudeTurn();
    spec.prompt.clear();
    spec.turnId.clear();
    spec.topic.clear();
    spec.sessionId = "s-new";
    spec.sessionMode = SessionMode::New;
    spec.prestarted = true;
    const AgentLaunch launch = buildAgentLaunch(spec);
    EXPECT_EQ(launch.argv,
              (std::vector<std::string>{
                  "/usr/local/bin/claude", "-p", "--input-format", "stream-json", "--output-format",
                  "stream-json", "--verbose", "--session-id", "s-new", "--mcp-config", kToolsConfig,
                  "--strict-mcp-config", "--dangerously-skip-permissions"}));
    // Its Bash tool learns the turn's id and topic from this file, which
    // PID 1 writes when the spec comes.
    EXPECT_EQ(valueOf(launch, "CLAUDE_ENV_FILE"), "/run/arizuko-turn.env");
    EXPECT_TRUE(valuesOf(buildAgentLaunch(claudeTurn()), "CLAUDE_ENV_FILE").empty());
}

TEST(AgentLaunch, ClaudeCodesPromptIsOneStreamJsonUserMessageAnsweredByItsResult)
{
    const StartedPrompt prompt = startedPrompt(AgentKind::Claude, "say \"hi\"\nthen go");
    EXPECT_EQ(prompt.input, "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
                            "\"say \\\"hi\\\"\\nthen go\"}}\n");
    EXPECT_TRUE(prompt.endsAnswer(R"({"type":"result","subtype":"success"})"));
    EXPECT_FALSE(prompt.endsAnswer(R"({"type":"assistant","message":{"type":"result"}})"));
    EXPECT_FALSE(prompt.endsAnswer(R"({"type":"agent_end"})"));
}

// pi in RPC mode: its session's name asked first (rpc mode prints no
// session header), then the prompt; its answer ends at agent_end, or at a
// command it refuses (its stdin must close then, or it would wait on).
TEST(AgentLaunch, PisPromptIsAnRpcCommandAnsweredByAgentEnd)
{
    const StartedPrompt prompt = startedPrompt(AgentKind::Pi, "say \"hi\"");
    EXPECT_EQ(prompt.input,
              "{\"type\":\"get_state\"}\n{\"type\":\"prompt\",\"message\":\"say \\\"hi\\\"\"}\n");
    EXPECT_TRUE(prompt.endsAnswer(R"({"type":"agent_end","messages":[]})"));
    EXPECT_TRUE(prompt.endsAnswer(
        R"({"type":"response","command":"prompt","success":false,"error":"No model"})"));
    EXPECT_FALSE(prompt.endsAnswer(R"({"type":"response","command":"get_state","success":true})"));
    EXPECT_FALSE(prompt.endsAnswer(R"({"type":"result"})"));
    EXPECT_FALSE(prompt.closeAfterInput);
    EXPECT_THROW(startedPrompt(AgentKind::Command, "hi"), SpecError);
}

// Codex (`exec -`) reads the prompt's text until end of input: its stdin
// closes once the prompt is written, and no line of its output is waited for.
TEST(AgentLaunch, CodexsPromptIsItsTextFollowedByEndOfInput)
{
    const StartedPrompt prompt = startedPrompt(AgentKind::Codex, "say \"hi\"\nthen go");
    EXPECT_EQ(prompt.input, "say \"hi\"\nthen go");
    EXPECT_TRUE(prompt.closeAfterInput);
    EXPECT_FALSE(prompt.endsAnswer);
}

TEST(AgentLaunch, TheTurnsIdAndTopicAreQuotedForTheShell)
{
    TurnSpec spec = claudeTurn();
    spec.topic = "it's $(here)";
    EXPECT_EQ(turnEnvironmentScript(spec),
              "export ARIZUKO_TURN_ID='t9'\nexport ARIZUKO_TOPIC='it'\\''s $(here)'\n");
}

// Read into the page cache beside the agent's start: what that kind starts
// from, and nothing beside a command (reading Claude Code's 383 MiB there
// took the one vCPU and the disk from the turn's own setup).
TEST(AgentLaunch, EachKindReadsAheadOnlyWhatItStartsFrom)
{
    using Paths = std::vector<std::string>;
    EXPECT_EQ(readAheadPaths(AgentKind::Command), Paths{});
    EXPECT_EQ(readAheadPaths(AgentKind::Claude), Paths{"/usr/local/bin/claude"});
    EXPECT_EQ(readAheadPaths(AgentKind::Codex), Paths{"/usr/local/bin/codex"});
    EXPECT_EQ(readAheadPaths(AgentKind::Pi), Paths{"/usr/local/bin/node"});
}

// Each kind's profile is found by the name the host writes in the spec.
TEST(AgentProfile, EveryKindIsFoundByItsName)
{
    for (const AgentKind kind :
         {AgentKind::Command, AgentKind::Claude, AgentKind::Codex, AgentKind::Pi}) {
        const AgentProfile *named = agentProfileNamed(agentName(kind));
        ASSERT_NE(named, nullptr) << agentName(kind);
        EXPECT_EQ(named->kind, kind);
        EXPECT_EQ(&agentProfile(kind), named);
        // Only an agent that talks to the model is started before its prompt.
        EXPECT_EQ(named->startedPrompt != nullptr, named->usesModel) << named->name;
    }
    EXPECT_EQ(agentNames(), "command, claude, codex, pi");
    EXPECT_EQ(agentProfileNamed("gemini"), nullptr);
}

TEST(AgentLaunch, TheTurnsCaIsWhereEachToolLooks)
{
    const GuestLayout layout;
    TurnSpec spec = claudeTurn();
    const AgentLaunch plain = buildAgentLaunch(spec, layout);
    EXPECT_TRUE(valuesOf(plain, "NODE_EXTRA_CA_CERTS").empty());
    EXPECT_TRUE(valuesOf(plain, "GIT_SSL_CAINFO").empty());
    spec.inspectCa = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    const AgentLaunch inspected = buildAgentLaunch(spec, layout);
    EXPECT_EQ(valueOf(inspected, "NODE_EXTRA_CA_CERTS"), layout.turnCa);
    for (const char *name :
         {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "GIT_SSL_CAINFO", "CURL_CA_BUNDLE"})
        EXPECT_EQ(valueOf(inspected, name), layout.caBundle) << name;
}
