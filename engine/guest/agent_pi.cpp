// pi: `-p --mode json` (`--mode rpc` when started ahead) against the
// gateway's Anthropic Messages API, its scratch agent directory on the VM's
// /run, its sessions in the home.

#include "agent_profile.h"
#include "jsontext/json_string.h"

namespace arizuko::guest {
namespace {

// `get_state` (whose answer names the session pi started: rpc mode prints
// no session header) and the `prompt` command, answered by `agent_end`, or
// by a `response` that refuses a command.
StartedPrompt piPrompt(const std::string &prompt)
{
    return {"{\"type\":\"get_state\"}\n{\"type\":\"prompt\",\"message\":" +
                jsontext::quote(prompt) + "}\n",
            [](std::string_view line) {
                // Most lines are neither: they are not parsed.
                if (line.find("\"agent_end\"") == std::string_view::npos &&
                    line.find("\"success\":false") == std::string_view::npos)
                    return false;
                const std::string type = messageType(line);
                return type == "agent_end" ||
                       (type == "response" && messageFlag(line, "success") == false);
            }};
}

// Its key is ANTHROPIC_API_KEY, reserved as a prefix.
constexpr std::string_view piVariables[] = {"PI_CODING_AGENT_DIR", "PI_OFFLINE",
                                            "PI_SKIP_VERSION_CHECK"};

// Node, which runs pi's bundle.
std::vector<std::string> piAhead(const GuestLayout &layout)
{
    return {layout.kinds.node};
}

KindLaunch launchPi(const TurnSpec &spec, const GuestLayout &layout)
{
    return piLaunch(spec, layout.kinds);
}

} // namespace

KindLaunch piLaunch(const TurnSpec &spec, const AgentKindLayout &layout)
{
    requireModelLaunch(spec, "pi");
    const std::string agentDir = layout.configRoot + "/pi";
    const std::string sessions = layout.home + "/.pi/agent/sessions";
    KindLaunch launch;
    // Started ahead of its prompt, pi takes it as an RPC command on stdin.
    launch.argv = {layout.pi};
    if (spec.prestarted)
        launch.argv.insert(launch.argv.end(), {"--mode", "rpc"});
    else
        launch.argv.insert(launch.argv.end(), {"-p", "--mode", "json"});
    launch.argv.insert(launch.argv.end(),
                       {"--offline", "--provider", "anthropic", "--session-dir", sessions});
    if (!spec.model.empty()) {
        launch.argv.emplace_back("--model");
        launch.argv.push_back(spec.model);
    }
    if (spec.sessionMode == SessionMode::Resume && !spec.sessionId.empty()) {
        launch.argv.emplace_back("--session");
        launch.argv.push_back(spec.sessionId);
    }
    if (!spec.prestarted)
        launch.argv.push_back(spec.prompt);
    launch.environment = {"PI_CODING_AGENT_DIR=" + agentDir, "PI_OFFLINE=1",
                          "PI_SKIP_VERSION_CHECK=1", "ANTHROPIC_API_KEY=" + spec.gatewayToken};
    // The built-in anthropic provider, sent to the gateway (which adds
    // /v1/messages itself, as the Anthropic SDK does).
    launch.files = {
        {agentDir + "/models.json", "{\"providers\":{\"anthropic\":{\"baseUrl\":" +
                                        jsontext::quote(trimmedSlash(spec.gatewayUrl)) + "}}}\n"},
        // A failed model call ends the turn with the gateway's reason at
        // once instead of three backed-off retries; no install ping.
        {agentDir + "/settings.json",
         "{\"retry\":{\"enabled\":false},\"enableInstallTelemetry\":false,\"quietStartup\":true" +
             (spec.prestarted
                  ? ",\"shellCommandPrefix\":" + jsontext::quote(". " + layout.turnEnvironmentFile)
                  : std::string()) +
             "}\n"}};
    launch.homeDirectories = {sessions};
    if (spec.skills)
        launch.links = {{agentDir + "/skills", layout.homeSkills}};
    return launch;
}

const AgentProfile piProfile{
    .kind = AgentKind::Pi,
    .name = "pi",
    .usesModel = true,
    .launch = launchPi,
    .startedPrompt = piPrompt,
    .readAhead = piAhead,
    .ownVariables = piVariables,
};

} // namespace arizuko::guest
