// How Codex and pi are started: argv, the environment they add, the config
// files in the scratch directory and the links that keep their sessions in
// the home. Each flag and key here was checked against the real binary
// (Codex 0.171.0 with --strict-config, pi 0.73.1's --help; docs/agents.md).

#include "agent_kinds.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace arizuko::guest;

namespace {

TurnSpec turn()
{
    TurnSpec spec;
    spec.turnId = "t9";
    spec.prompt = "say \"hi\"";
    spec.gatewayUrl = "http://10.213.0.1:8080/";
    spec.gatewayToken = "turn-token";
    spec.sessionMode = SessionMode::New;
    return spec;
}

bool has(const std::vector<std::string> &list, const std::string &value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

const AgentFile &fileAt(const KindLaunch &launch, const std::string &path)
{
    const auto found = std::find_if(launch.files.begin(), launch.files.end(),
                                    [&path](const AgentFile &file) { return file.path == path; });
    if (found == launch.files.end())
        throw std::runtime_error("no file " + path);
    return *found;
}

} // namespace

TEST(CodexLaunch, ExecJsonAgainstTheGatewayWithEverythingElseOff)
{
    const KindLaunch launch = codexLaunch(turn());
    const std::vector<std::string> argv{"/usr/local/bin/codex",
                                        "exec",
                                        "--json",
                                        "--skip-git-repo-check",
                                        "--dangerously-bypass-approvals-and-sandbox",
                                        "--disable",
                                        "unbounded_connection_retries",
                                        "--cd",
                                        "/home/agent",
                                        "say \"hi\""};
    EXPECT_EQ(launch.argv, argv);
    EXPECT_TRUE(has(launch.environment, "CODEX_HOME=/run/arizuko-agent/codex"));
    EXPECT_TRUE(has(launch.environment, "ARIZUKO_GATEWAY_TOKEN=turn-token"));
    const std::string config = fileAt(launch, "/run/arizuko-agent/codex/config.toml").content;
    for (const char *line :
         {"model_provider = \"arizuko\"\n", "base_url = \"http://10.213.0.1:8080/v1\"\n",
          "env_key = \"ARIZUKO_GATEWAY_TOKEN\"\n", "wire_api = \"responses\"\n",
          "web_search = \"disabled\"\n", "plugins = false\n",
          "unbounded_connection_retries = false\n", "[analytics]\nenabled = false\n",
          "url = \"http://10.213.0.1:8080/mcp\"\n",
          "bearer_token_env_var = \"ARIZUKO_GATEWAY_TOKEN\"\n",
          // No warning of the home's .codex on every turn.
          "[projects.\"/home/agent\"]\ntrust_level = \"trusted\"\n"})
        EXPECT_NE(config.find(line), std::string::npos) << line;
    // The token is passed by name, never written into a file.
    EXPECT_EQ(config.find("turn-token"), std::string::npos);
    EXPECT_EQ(config.find("model ="),
              std::string::npos); // Codex's default unless the turn names one
    ASSERT_EQ(launch.links.size(), 1u);
    EXPECT_EQ(launch.links[0].path, "/run/arizuko-agent/codex/sessions");
    EXPECT_EQ(launch.links[0].target, "/home/agent/.codex/sessions");
    EXPECT_TRUE(has(launch.homeDirectories, "/home/agent/.codex/sessions"));
}

TEST(CodexLaunch, ResumesTheTopicsThreadAndQuotesTheModel)
{
    TurnSpec spec = turn();
    spec.sessionMode = SessionMode::Resume;
    spec.sessionId = "01a235a1-26f8-75b3-838d-4aed9073fd76";
    spec.model = "gpt-5.4\"\n[x]";
    const KindLaunch launch = codexLaunch(spec);
    const auto resume = std::find(launch.argv.begin(), launch.argv.end(), "resume");
    ASSERT_NE(resume, launch.argv.end());
    EXPECT_EQ(*(resume + 1), spec.sessionId);
    EXPECT_EQ(launch.argv.back(), spec.prompt);
    // A model name cannot add a line (or a table) to the config.
    EXPECT_NE(fileAt(launch, "/run/arizuko-agent/codex/config.toml")
                  .content.find("model = \"gpt-5.4\\\"\\u000A[x]\"\n"),
              std::string::npos);
}

// Started ahead of its prompt, `codex exec -` reads it from stdin until end
// of input; nothing else of the launch changes.
TEST(CodexLaunch, StartedAheadItReadsThePromptFromStdin)
{
    TurnSpec spec = turn();
    spec.prompt.clear();
    spec.prestarted = true;
    const KindLaunch started = codexLaunch(spec);
    EXPECT_EQ(started.argv.back(), "-");
    EXPECT_FALSE(has(started.argv, "say \"hi\""));
    const KindLaunch launched = codexLaunch(turn());
    EXPECT_EQ(std::vector<std::string>(started.argv.begin(), started.argv.end() - 1),
              std::vector<std::string>(launched.argv.begin(), launched.argv.end() - 1));
    EXPECT_EQ(started.environment, launched.environment);
}

TEST(PiLaunch, PrintModeJsonThroughTheAnthropicProviderAtTheGateway)
{
    const KindLaunch launch = piLaunch(turn());
    const std::vector<std::string> argv{"/usr/local/bin/pi",
                                        "-p",
                                        "--mode",
                                        "json",
                                        "--offline",
                                        "--provider",
                                        "anthropic",
                                        "--session-dir",
                                        "/home/agent/.pi/agent/sessions",
                                        "say \"hi\""};
    EXPECT_EQ(launch.argv, argv);
    for (const char *entry : {"PI_CODING_AGENT_DIR=/run/arizuko-agent/pi", "PI_OFFLINE=1",
                              "PI_SKIP_VERSION_CHECK=1", "ANTHROPIC_API_KEY=turn-token"})
        EXPECT_TRUE(has(launch.environment, entry)) << entry;
    EXPECT_EQ(fileAt(launch, "/run/arizuko-agent/pi/models.json").content,
              "{\"providers\":{\"anthropic\":{\"baseUrl\":\"http://10.213.0.1:8080\"}}}\n");
    EXPECT_NE(fileAt(launch, "/run/arizuko-agent/pi/settings.json")
                  .content.find("\"retry\":{\"enabled\":false}"),
              std::string::npos);
    EXPECT_TRUE(has(launch.homeDirectories, "/home/agent/.pi/agent/sessions"));
    EXPECT_TRUE(launch.links.empty());
}

// Started ahead of its prompt (a spare's `prestart`): RPC mode, no prompt
// in argv, and its bash tool sources the turn's environment file, which
// PID 1 writes when the spec comes.
TEST(PiLaunch, StartedAheadItWaitsInRpcModeAndItsCommandsReadTheTurnsEnvironment)
{
    TurnSpec spec = turn();
    spec.prompt.clear();
    spec.prestarted = true;
    const KindLaunch launch = piLaunch(spec);
    const std::vector<std::string> argv{
        "/usr/local/bin/pi", "--mode",    "rpc",           "--offline",
        "--provider",        "anthropic", "--session-dir", "/home/agent/.pi/agent/sessions"};
    EXPECT_EQ(launch.argv, argv);
    EXPECT_NE(fileAt(launch, "/run/arizuko-agent/pi/settings.json")
                  .content.find("\"shellCommandPrefix\":\". /run/arizuko-turn.env\""),
              std::string::npos);
    EXPECT_EQ(fileAt(piLaunch(turn()), "/run/arizuko-agent/pi/settings.json")
                  .content.find("shellCommandPrefix"),
              std::string::npos);
}

TEST(PiLaunch, ResumesBySessionIdAndReadsTheHomesSkills)
{
    TurnSpec spec = turn();
    spec.sessionMode = SessionMode::Resume;
    spec.sessionId = "01a2359c-a1c2-77a6-99ef-ee6108f915c9";
    spec.model = "claude-sonnet-4-5";
    spec.skills = true;
    const KindLaunch launch = piLaunch(spec);
    const auto session = std::find(launch.argv.begin(), launch.argv.end(), "--session");
    ASSERT_NE(session, launch.argv.end());
    EXPECT_EQ(*(session + 1), spec.sessionId);
    const auto model = std::find(launch.argv.begin(), launch.argv.end(), "--model");
    ASSERT_NE(model, launch.argv.end());
    EXPECT_EQ(*(model + 1), "claude-sonnet-4-5");
    ASSERT_EQ(launch.links.size(), 1u);
    EXPECT_EQ(launch.links[0].path, "/run/arizuko-agent/pi/skills");
    EXPECT_EQ(launch.links[0].target, "/home/agent/skills");
}

TEST(AgentKinds, RefuseATurnWithoutPromptOrGateway)
{
    TurnSpec spec = turn();
    spec.gatewayToken.clear();
    EXPECT_THROW(codexLaunch(spec), SpecError);
    EXPECT_THROW(piLaunch(spec), SpecError);
    spec = turn();
    spec.prompt.clear();
    EXPECT_THROW(codexLaunch(spec), SpecError);
}
