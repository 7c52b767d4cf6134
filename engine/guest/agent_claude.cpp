// Claude Code: print mode, stream-json out, the turn's tools as its only MCP
// server, the topic's session started or resumed by id.

#include "agent_profile.h"
#include "jsontext/json_string.h"

namespace arizuko::guest {
namespace {

// The turn's tools are an MCP server at /mcp on the turn's model gateway,
// behind the same peer and token checks (docs/tools.md). --strict-mcp-config
// keeps every other MCP server (a .mcp.json the agent wrote into its home,
// say) out of the turn.
std::string mcpConfig(const TurnSpec &spec)
{
    const std::string server =
        "{\"type\":\"http\",\"url\":" + jsontext::quote(spec.gatewayUrl + "/mcp") +
        ",\"headers\":{\"Authorization\":" + jsontext::quote("Bearer " + spec.gatewayToken) + "}}";
    return "{\"mcpServers\":{\"arizuko\":" + server + "}}";
}

KindLaunch claudeLaunch(const TurnSpec &spec, const GuestLayout &layout)
{
    KindLaunch launch;
    std::vector<std::string> &argv = launch.argv;
    argv = {layout.claude, "-p"};
    if (spec.prestarted) {
        argv.emplace_back("--input-format");
        argv.emplace_back("stream-json");
    } else {
        argv.push_back(spec.prompt);
    }
    for (const char *argument : {"--output-format", "stream-json", "--verbose"})
        argv.emplace_back(argument);
    if (!spec.sessionId.empty()) {
        argv.emplace_back(spec.sessionMode == SessionMode::New ? "--session-id" : "--resume");
        argv.push_back(spec.sessionId);
    }
    if (!spec.model.empty()) {
        argv.emplace_back("--model");
        argv.push_back(spec.model);
    }
    if (spec.skills) {
        argv.emplace_back("--add-dir");
        argv.push_back(layout.skillsRoot);
    }
    if (!spec.gatewayUrl.empty() && !spec.gatewayToken.empty()) {
        argv.emplace_back("--mcp-config");
        argv.push_back(mcpConfig(spec));
        argv.emplace_back("--strict-mcp-config");
    }
    // Safe only because the VM is the sandbox; IS_SANDBOX (agent_launch.cpp)
    // says so.
    argv.emplace_back("--dangerously-skip-permissions");
    launch.environment = anthropicGateway(spec);
    return launch;
}

// One stream-json user message, answered by its `result`.
StartedPrompt claudePrompt(const std::string &prompt)
{
    return {"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":" +
                jsontext::quote(prompt) + "}}\n",
            [](std::string_view line) {
                // Most lines are not the result: they are not parsed.
                return line.find("\"result\"") != std::string_view::npos &&
                       messageType(line) == "result";
            }};
}

// Its ~400 MB Bun binary, which a cold start faults in page by page
// (docs/turns.md, "Where the time goes").
std::vector<std::string> claudeAhead(const GuestLayout &layout)
{
    return {layout.claude};
}

} // namespace

const AgentProfile claudeProfile{
    .kind = AgentKind::Claude,
    .name = "claude",
    .usesModel = true,
    .launch = claudeLaunch,
    .startedPrompt = claudePrompt,
    .readAhead = claudeAhead,
    .ownVariables = {},
};

} // namespace arizuko::guest
