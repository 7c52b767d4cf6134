#include "agent_kinds.h"

#include "jsontext/json_string.h"

#include <cstdio>

namespace arizuko::guest {
namespace {

std::string trimmedSlash(std::string url)
{
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    return url;
}

void requireGateway(const TurnSpec &spec, const char *agent)
{
    if (spec.prompt.empty() && !spec.prestarted)
        throw SpecError(std::string("prompt is required for the ") + agent + " agent");
    if (spec.gatewayUrl.empty() || spec.gatewayToken.empty())
        throw SpecError(std::string("gateway_url and gateway_token are required for the ") + agent +
                        " agent");
}

// Codex 0.171.0's config (docs/agents.md says why each line): the gateway
// as the only model provider, the turn's tools as its MCP server, and
// everything that would call elsewhere off.
std::string codexConfig(const TurnSpec &spec, const std::string &home)
{
    const std::string gateway = trimmedSlash(spec.gatewayUrl);
    std::string toml;
    toml += "model_provider = \"arizuko\"\n";
    if (!spec.model.empty())
        toml += "model = " + tomlString(spec.model) + "\n";
    toml += "web_search = \"disabled\"\n";
    toml += "check_for_update_on_startup = false\n";
    toml += "\n[model_providers.arizuko]\n";
    toml += "name = \"Arizuko model gateway\"\n";
    toml += "base_url = " + tomlString(gateway + "/v1") + "\n";
    toml += "env_key = " + tomlString(codexTokenVariable) + "\n";
    toml += "wire_api = \"responses\"\n";
    toml += "\n[features]\n";
    toml += "plugins = false\n";
    toml += "unbounded_connection_retries = false\n";
    // Started before its turn existed, Codex would run each command from a
    // shell snapshot taken then, without the turn's id and topic; a login
    // shell per command reads them (the image's /etc/profile sources
    // /run/arizuko-turn.env).
    if (spec.prestarted)
        toml += "shell_snapshot = false\n";
    toml += "\n[analytics]\n";
    toml += "enabled = false\n";
    // The home holds ~/.codex/sessions, so Codex takes it for a project
    // with its own configuration, and in an untrusted one warns on every
    // turn that it ignores it. Trusted, it reads the home's
    // .codex/config.toml (never its model_providers): nothing there runs
    // outside this VM or reaches past its proxy and gateway.
    toml += "\n[projects." + tomlString(home) + "]\n";
    toml += "trust_level = \"trusted\"\n";
    toml += "\n[mcp_servers.arizuko]\n";
    toml += "url = " + tomlString(gateway + "/mcp") + "\n";
    toml += "bearer_token_env_var = " + tomlString(codexTokenVariable) + "\n";
    return toml;
}

} // namespace

std::string tomlString(const std::string &text)
{
    std::string quoted = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04X", byte);
            quoted += escaped;
        } else {
            quoted += c;
        }
    }
    return quoted + '"';
}

KindLaunch codexLaunch(const TurnSpec &spec, const AgentKindLayout &layout)
{
    requireGateway(spec, "codex");
    const std::string codexHome = layout.configRoot + "/codex";
    KindLaunch launch;
    launch.argv = {layout.codex, "exec", "--json", "--skip-git-repo-check",
                   // The VM is the sandbox; Codex's own (bwrap) cannot run in it.
                   "--dangerously-bypass-approvals-and-sandbox",
                   // Also in the config; on the command line it cannot be
                   // overridden by anything Codex reads.
                   "--disable", "unbounded_connection_retries", "--cd", layout.home};
    if (spec.sessionMode == SessionMode::Resume && !spec.sessionId.empty()) {
        launch.argv.emplace_back("resume");
        launch.argv.push_back(spec.sessionId);
    }
    // Started ahead, it loads its configuration and then waits in read(0)
    // for the prompt (`-`: until end of input).
    launch.argv.push_back(spec.prestarted ? std::string("-") : spec.prompt);
    launch.environment = {"CODEX_HOME=" + codexHome,
                          std::string(codexTokenVariable) + "=" + spec.gatewayToken};
    launch.files = {{codexHome + "/config.toml", codexConfig(spec, layout.home)}};
    // Sessions (rollout files) live in the home, so a later turn's fresh
    // CODEX_HOME resumes them; everything else Codex keeps is scratch.
    launch.homeDirectories = {layout.home + "/.codex/sessions"};
    launch.links = {{codexHome + "/sessions", layout.home + "/.codex/sessions"}};
    return launch;
}

KindLaunch piLaunch(const TurnSpec &spec, const AgentKindLayout &layout)
{
    requireGateway(spec, "pi");
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

} // namespace arizuko::guest
