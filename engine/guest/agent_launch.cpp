#include "agent_launch.h"

#include "agent_profile.h"

namespace arizuko::guest {

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
    const AgentProfile &profile = agentProfile(agent);
    if (!profile.startedPrompt)
        throw SpecError(std::string("the ") + profile.name +
                        " agent is not started before its prompt");
    return profile.startedPrompt(prompt);
}

std::vector<std::string> readAheadPaths(AgentKind kind, const GuestLayout &layout)
{
    return agentProfile(kind).readAhead(layout);
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
    KindLaunch kind = agentProfile(spec.agent).launch(spec, layout);
    launch.argv = std::move(kind.argv);
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
    if (!spec.inspectCa.empty()) {
        // The bundle holds the turn's CA too (boot::trustTurnCa); Node adds
        // its extra CA to its own built-in list.
        set("NODE_EXTRA_CA_CERTS", layout.turnCa);
        set("REQUESTS_CA_BUNDLE", layout.caBundle);
        set("GIT_SSL_CAINFO", layout.caBundle);
        set("CURL_CA_BUNDLE", layout.caBundle);
    }
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
    // The kind's own: its way to the gateway, its scratch config.
    env.insert(env.end(), kind.environment.begin(), kind.environment.end());
    launch.files = std::move(kind.files);
    launch.homeDirectories = std::move(kind.homeDirectories);
    launch.links = std::move(kind.links);
    if (spec.prestarted)
        set("CLAUDE_ENV_FILE", layout.kinds.turnEnvironmentFile);
    // shell:env grants: checked by parseTurnSpec never to be one of the above.
    for (const auto &[name, value] : spec.environment)
        set(name, value);
    return launch;
}

} // namespace arizuko::guest
