#pragma once

// Codex's and pi's scratch config, made in the VM before the agent starts:
// the files of its launch (root-owned, readable by the agent, in
// directories the agent may write its own scratch state into), the home
// directories that keep its sessions (made as the agent, so they are the
// user's files on the host) and the links from the scratch to them.

#include "agent_launch.h"

namespace arizuko::guest {

void prepareAgentFiles(const AgentLaunch &launch);

// The launch's home directories again, in the folder's home just mounted
// over the scratch home a started agent began in (it writes its session
// there after its prompt).
void makeHomeDirectoriesAsAgent(const AgentLaunch &launch);

} // namespace arizuko::guest
