#pragma once

// Reading the agent's binary into the page cache beside its start (from a
// spare's `prestart`, or a cold turn's spec). Claude Code's binary is
// ~400 MB; read on demand by the loader's and the runtime's page faults it
// costs seconds under TCG (docs/turns.md, "Where the agent's start goes").

#include <string>
#include <vector>

namespace arizuko::guest::page_cache {

// Starts one background thread that asks the kernel to read each file
// whole (readahead(2): no copy into this process) and logs on the console
// how long it took. It never fails the turn: a file it cannot open or read
// is named on the console and skipped.
void warmInBackground(std::vector<std::string> paths);

// The agent has started: the reading goes on (the agent needs those pages
// too) at the lowest CPU priority, so it never slows the agent's own start
// on the guest's one vCPU.
void yieldToAgent();

} // namespace arizuko::guest::page_cache
