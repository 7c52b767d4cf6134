#include "agent_launch.h"

#include "jsontext/json_string.h"

#include <optional>

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

std::vector<std::string> agentArguments(const TurnSpec &spec, const GuestLayout &layout)
{
    switch (spec.agent) {
    case AgentKind::Command:
        return {layout.shell, "-c", spec.command};
    case AgentKind::Claude: {
        std::vector<std::string> argv = {layout.claude, "-p"};
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
        // Safe only because the VM is the sandbox; IS_SANDBOX below says so.
        argv.emplace_back("--dangerously-skip-permissions");
        return argv;
    }
    case AgentKind::Codex:
    case AgentKind::Pi:
        break; // their own launch (agent_kinds.h)
    }
    throw SpecError("unknown agent kind");
}

std::optional<KindLaunch> kindLaunch(const TurnSpec &spec, const GuestLayout &layout)
{
    switch (spec.agent) {
    case AgentKind::Codex:
        return codexLaunch(spec, layout.kinds);
    case AgentKind::Pi:
        return piLaunch(spec, layout.kinds);
    case AgentKind::Command:
    case AgentKind::Claude:
        break;
    }
    return std::nullopt;
}

} // namespace

std::string urlHost(std::string_view url)
{
    const std::size_t scheme = url.find("://");
    if (scheme == std::string_view::npos)
        throw SpecError("URL \"" + std::string(url) + "\" has no scheme");
    std::string_view authority = url.substr(scheme + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    const std::size_t at = authority.rfind('@');
    if (at != std::string_view::npos)
        authority.remove_prefix(at + 1);
    std::string_view host;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            throw SpecError("URL \"" + std::string(url) + "\" has an unclosed IPv6 address");
        host = authority.substr(1, close - 1);
    } else {
        host = authority.substr(0, authority.find(':'));
    }
    if (host.empty())
        throw SpecError("URL \"" + std::string(url) + "\" has no host");
    return std::string(host);
}

StartedPrompt startedPrompt(AgentKind agent, const std::string &prompt)
{
    if (agent == AgentKind::Pi)
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
    if (agent == AgentKind::Codex)
        return {prompt, nullptr, true};
    if (agent != AgentKind::Claude)
        throw SpecError("only Claude Code, Codex and pi are started before their prompt");
    return {"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":" +
                jsontext::quote(prompt) + "}}\n",
            [](std::string_view line) {
                // Most lines are not the result: they are not parsed.
                return line.find("\"result\"") != std::string_view::npos &&
                       messageType(line) == "result";
            }};
}

std::vector<std::string> readAheadPaths(AgentKind kind, const GuestLayout &layout)
{
    switch (kind) {
    case AgentKind::Claude:
        return {layout.claude};
    case AgentKind::Codex:
        return {layout.kinds.codex};
    case AgentKind::Pi:
        return {layout.kinds.node};
    case AgentKind::Command:
        break;
    }
    return {};
}

std::string turnEnvironmentScript(const TurnSpec &spec)
{
    const auto quoted = [](const std::string &value) {
        std::string text = "'";
        for (const char c : value)
            text += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return text + '\'';
    };
    return "export ARIZUKO_TURN_ID=" + quoted(spec.turnId) +
           "\nexport ARIZUKO_TOPIC=" + quoted(spec.topic) + "\n";
}

AgentLaunch buildAgentLaunch(const TurnSpec &spec, const GuestLayout &layout)
{
    AgentLaunch launch;
    const std::optional<KindLaunch> kind = kindLaunch(spec, layout);
    launch.argv = kind ? kind->argv : agentArguments(spec, layout);
    launch.workingDirectory = layout.home;
    launch.uid = spec.uid;
    launch.gid = spec.gid;

    auto &env = launch.environment;
    const auto set = [&env](std::string_view name, std::string_view value) {
        env.push_back(std::string(name) + '=' + std::string(value));
    };
    set("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
    set("HOME", layout.home);
    set("USER", "agent");
    set("LOGNAME", "agent");
    set("SHELL", layout.loginShell);
    set("TERM", "dumb");
    set("LANG", "C.UTF-8");
    set("TMPDIR", "/tmp");
    set("SSL_CERT_FILE", layout.caBundle);
    set("DISABLE_TELEMETRY", "1");
    set("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    set("IS_SANDBOX", "1");
    set("ARIZUKO_TURN_ID", spec.turnId);
    set("ARIZUKO_FOLDER", spec.folder);
    set("ARIZUKO_TOPIC", spec.topic);
    if (!spec.proxyUrl.empty()) {
        // Tools differ in which spelling they read; set all four.
        for (const char *name : {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"})
            set(name, spec.proxyUrl);
    }
    if (!spec.gatewayUrl.empty()) {
        const std::string gatewayHost = urlHost(spec.gatewayUrl);
        set("NO_PROXY", gatewayHost);
        set("no_proxy", gatewayHost);
    }
    // Claude Code's way to the gateway (and the command agent's, for the
    // scripts that run an agent by hand); Codex and pi bring their own.
    if (!kind && !spec.gatewayUrl.empty())
        set("ANTHROPIC_BASE_URL", spec.gatewayUrl);
    if (!kind && !spec.gatewayToken.empty())
        set("ANTHROPIC_API_KEY", spec.gatewayToken);
    if (kind) {
        env.insert(env.end(), kind->environment.begin(), kind->environment.end());
        launch.files = kind->files;
        launch.homeDirectories = kind->homeDirectories;
        launch.links = kind->links;
    }
    if (spec.prestarted)
        set("CLAUDE_ENV_FILE", layout.kinds.turnEnvironmentFile);
    // shell:env grants: checked by parseTurnSpec never to be one of the above.
    for (const auto &[name, value] : spec.environment)
        set(name, value);
    return launch;
}

} // namespace arizuko::guest
