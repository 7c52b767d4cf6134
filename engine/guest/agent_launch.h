#pragma once

// What to execute for a turn: the agent's argv, its whole environment, its
// working directory and identity. Pure, so the exact contract with the
// agent (proxy, gateway, telemetry off) is tested without a VM.

#include "agent_kinds.h"
#include "turn_spec.h"

#include <cstdint>
#include <functional>
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
    // The turn's CA alone (boot::trustTurnCa), for NODE_EXTRA_CA_CERTS.
    std::string turnCa = "/run/arizuko-turn-ca.crt";
    // Claude Code loads <dir>/.claude/skills of each --add-dir; this one's
    // links to the home's skills/ (boot::linkSkills).
    std::string skillsRoot = "/run/arizuko-skills";
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
// prompt from stdin (Claude Code `--input-format stream-json`, pi `--mode
// rpc`, Codex `exec -`) instead of its argv.
AgentLaunch buildAgentLaunch(const TurnSpec &spec, const GuestLayout &layout = {});

// What a started agent gets once the spec is there: its prompt on stdin,
// and which of its output lines ends its answer (its stdin is closed then,
// so it exits: one prompt per turn, as with the prompt in argv), or that
// its stdin closes as soon as the prompt is written.
struct StartedPrompt
{
    std::string input;
    std::function<bool(std::string_view line)> endsAnswer;
    bool closeAfterInput = false;
};

// Claude Code: one stream-json user message, answered by its `result`.
// pi: `get_state` (whose answer names the session pi started: rpc mode
// prints no session header) and the `prompt` command, answered by
// `agent_end`, or by a `response` that refuses a command.
// Codex (`exec -`): the prompt's text, read until end of input.
StartedPrompt startedPrompt(AgentKind agent, const std::string &prompt);

// What of the image the agent of `kind` reads first at its start, to be
// read into the page cache beside it (page_cache.h): its executable; nothing
// for a command.
std::vector<std::string> readAheadPaths(AgentKind kind, const GuestLayout &layout = {});

// The shell lines (`export NAME='value'`) a started agent's Bash tool
// sources: the spec's turn id and topic, which did not exist at its start.
std::string turnEnvironmentScript(const TurnSpec &spec);

// The host of an http(s) URL ("http://10.213.0.1:8080/x" -> "10.213.0.1",
// "http://[fd00::1]:80" -> "fd00::1"); SpecError when there is none.
std::string urlHost(std::string_view url);

} // namespace arizuko::guest
