#pragma once

// How each kind of agent is started in the guest, as data: its argv, what
// it adds to the agent's environment, the config files written into a
// scratch directory on the VM's own /run (the engine's, never the folder
// home's config), and the links and directories that keep its sessions in
// the home. Pure, so the contract with each binary (flags checked against
// its --help, docs/agents.md) is tested without a VM. Each kind's own file
// (agent_codex.cpp, agent_pi.cpp, ...) builds its launch; the helpers they
// share are here.

#include "turn_spec.h"

#include <string>
#include <vector>

namespace arizuko::guest {

struct AgentKindLayout
{
    std::string home = "/home/agent";
    std::string codex = "/usr/local/bin/codex";
    std::string pi = "/usr/local/bin/pi";
    std::string node = "/usr/local/bin/node"; // runs pi
    // Scratch config, one directory per agent below it; root-owned, on the
    // VM's tmpfs, gone with the VM.
    std::string configRoot = "/run/arizuko-agent";
    // The home's skills, as the host checked them (boot::linkSkills).
    std::string homeSkills = "/home/agent/skills";
    // A started agent's shell tool sources this before each command (Claude
    // Code's CLAUDE_ENV_FILE, pi's shellCommandPrefix): what only the spec
    // brings (the turn's id and topic) reaches the commands the agent runs
    // after its prompt.
    std::string turnEnvironmentFile = "/run/arizuko-turn.env";
};

struct AgentFile
{
    std::string path;
    std::string content;
};

struct AgentLink
{
    std::string path;   // the link, in the scratch config directory
    std::string target; // what it points at, in the home
};

struct KindLaunch
{
    std::vector<std::string> argv;        // argv[0] is an absolute path
    std::vector<std::string> environment; // "NAME=value", on top of the common one
    std::vector<AgentFile> files;         // written before the agent starts
    // Made (as the agent, in the home) before the links that point there.
    std::vector<std::string> homeDirectories;
    std::vector<AgentLink> links;
};

// The variable both agents read the turn's gateway token from: Codex as
// its provider's env_key and its MCP server's bearer, pi as the Anthropic
// key (the gateway swaps in the real one).
inline constexpr const char *codexTokenVariable = "ARIZUKO_GATEWAY_TOKEN";

// `codex exec --json …` against the gateway's Responses API, with the
// turn's tools at <gateway>/mcp. SessionMode::Resume with a session id
// continues that thread (`exec resume <id>`); otherwise a new thread starts
// and its id comes in the first event (thread.started).
KindLaunch codexLaunch(const TurnSpec &spec, const AgentKindLayout &layout = {});

// `pi -p --mode json …` against the gateway's Anthropic Messages API
// (`pi --mode rpc …`, its prompt to come on stdin, when `prestarted`). pi
// has no MCP: the turn's host tools do not reach it. A resumed session is
// named by its file (pi asks interactively for an id of another cwd).
KindLaunch piLaunch(const TurnSpec &spec, const AgentKindLayout &layout = {});

// The TOML basic string for `text`: quotes, backslashes and control
// characters escaped.
std::string tomlString(const std::string &text);

// `url` without its trailing slashes.
std::string trimmedSlash(std::string url);

// SpecError unless the spec brings what an agent that talks to the model
// needs at its launch: a prompt (or a started agent's stdin) and the gateway.
void requireModelLaunch(const TurnSpec &spec, const char *agent);

// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY naming the turn's gateway, as
// far as the spec brings it: Claude Code's way there.
std::vector<std::string> anthropicGateway(const TurnSpec &spec);

} // namespace arizuko::guest
