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

// Codex, whose working directory is the home: the project's .codex (its
// config.toml, loaded with its trust before the prompt is read) but for
// .codex/sessions, where turns keep its threads. AGENTS.md and skills it
// reads only once it has its prompt (strace of 0.171.0's `exec -`).
QStringList codexStartConfiguration(const HomeDirectory &home);

// The above for the agent named `kind` (by its profile, agent_profile.h);
// nothing for any other.
QStringList startConfiguration(const QString &kind, const HomeDirectory &home);

} // namespace arizuko::agent
