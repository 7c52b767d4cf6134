// Codex: `exec --json` against the gateway's Responses API, its scratch
// CODEX_HOME on the VM's /run, its sessions (rollout files) in the home.

#include "agent_profile.h"

namespace arizuko::guest {
namespace {

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

// Its token is ARIZUKO_GATEWAY_TOKEN, reserved as a prefix.
constexpr std::string_view codexVariables[] = {"CODEX_HOME"};

// `exec -`: the prompt's text, read until end of input.
StartedPrompt codexPrompt(const std::string &prompt)
{
    return {prompt, nullptr, true};
}

// Its native binary.
std::vector<std::string> codexAhead(const GuestLayout &layout)
{
    return {layout.kinds.codex};
}

KindLaunch launchCodex(const TurnSpec &spec, const GuestLayout &layout)
{
    return codexLaunch(spec, layout.kinds);
}

} // namespace

KindLaunch codexLaunch(const TurnSpec &spec, const AgentKindLayout &layout)
{
    requireModelLaunch(spec, "codex");
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

const AgentProfile codexProfile{
    .kind = AgentKind::Codex,
    .name = "codex",
    .usesModel = true,
    .launch = launchCodex,
    .startedPrompt = codexPrompt,
    .readAhead = codexAhead,
    .ownVariables = codexVariables,
};

} // namespace arizuko::guest
