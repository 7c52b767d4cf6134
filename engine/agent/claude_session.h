#pragma once

// Claude Code's conversation file for a topic, in the folder home where the
// agent keeps it: whether a turn can resume it, and copying it for a fork.

#include "agent/session_files.h"

namespace arizuko::agent {

// Where Claude Code, started in the guest's home (/home/agent), keeps a
// session: ~/.claude/projects/<cwd with / as ->/<session>.jsonl.
QString claudeSessionFile(const QString &sessionId);

SessionFileCheck inspectClaudeSession(const HomeDirectory &home, const QString &sessionId);

// Copies the conversation of `fromId` to a new file for `toId`, naming the
// new session in every line that named the old one, so Claude Code resumes
// it as its own. Returns false when the source has no file (nothing said
// yet: the fork simply starts fresh). A source over `maxBytes` is an error
// (home.too-large).
Result<bool> forkClaudeSession(const HomeDirectory &home, const QString &fromId,
                               const QString &toId, qint64 maxBytes = maxSessionBytes);

} // namespace arizuko::agent
