#pragma once

// What to execute for a turn: the agent's argv, its whole environment, its
// working directory and identity. Pure, so the exact contract with the
// agent (proxy, gateway, telemetry off) is tested without a VM.

#include "agent_kinds.h"
#include "turn_spec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::guest {

// Where the runtime image keeps what the agent needs.
struct GuestLayout
{
    std::string home = "/home/agent";
    std::string shell = "/bin/sh"; // runs `command` turns
    // The agent's $SHELL: Claude Code's Bash tool accepts only bash or zsh.
    std::string loginShell = "/bin/bash";
    std::string claude = "/usr/local/bin/claude";
    AgentKindLayout kinds;
    std::string caBundle = "/etc/ssl/certs/ca-certificates.crt";
    // Claude Code loads <dir>/.claude/skills of each --add-dir; this one's
    // links to the home's skills/ (boot::linkSkills).
    std::string skillsRoot = "/run/arizuko-skills";
    // A started agent's Bash tool sources this before each command
    // (CLAUDE_ENV_FILE): what only the spec brings (the turn's id and
    // topic) reaches the tools the agent runs after its prompt.
    std::string turnEnvironmentFile = "/run/arizuko-turn.env";
};

struct AgentLaunch
{
    std::vector<std::string> argv;        // argv[0] is an absolute path
    std::vector<std::string> environment; // "NAME=value"
    std::string workingDirectory;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    // Codex's and pi's scratch config and session links (KindLaunch), made
    // by prepareAgentFiles before the agent starts.
    std::vector<AgentFile> files;
    std::vector<std::string> homeDirectories;
    std::vector<AgentLink> links;
};

// For a spec with `prestarted` (a `prestart` message), the agent reads its
// prompt from stdin (`--input-format stream-json`) instead of its argv.
AgentLaunch buildAgentLaunch(const TurnSpec &spec, const GuestLayout &layout = {});

// The prompt as the one stream-json user message a started agent reads.
std::string promptMessage(const std::string &prompt);

// The shell lines (`export NAME='value'`) a started agent's Bash tool
// sources: the spec's turn id and topic, which did not exist at its start.
std::string turnEnvironmentScript(const TurnSpec &spec);

// The host of an http(s) URL ("http://10.213.0.1:8080/x" -> "10.213.0.1",
// "http://[fd00::1]:80" -> "fd00::1"); SpecError when there is none.
std::string urlHost(std::string_view url);

} // namespace arizuko::guest
