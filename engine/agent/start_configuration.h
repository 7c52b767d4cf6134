#pragma once

// What of the folder home an agent reads only at its start, by relative
// path: an agent a spare started before the home was mounted has not seen
// it, so a turn whose home holds any of it launches its agent afresh
// (docs/turns.md, "A warm turn whose agent is already started"). A name
// that cannot be read safely (a link on the way) counts as present.

#include "agent/home_directory.h"

#include <QStringList>

namespace arizuko::agent {

// Claude Code: its settings, skills, agents, commands, output styles and
// plugins under ~/.claude.
QStringList claudeStartConfiguration(const HomeDirectory &home);

// pi, whose working directory is the home: its context file (AGENTS.md,
// else CLAUDE.md), anything in the project's .pi (settings, skills,
// prompts, themes, extensions, packages, SYSTEM.md) but for .pi/agent, where
// turns keep its sessions, and .agents (skills).
QStringList piStartConfiguration(const HomeDirectory &home);

} // namespace arizuko::agent
