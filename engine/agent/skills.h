#pragma once

// The folder's skills: skills/<name>/SKILL.md in its home, handed to
// Claude Code (which loads <dir>/.claude/skills/<name>/SKILL.md). The
// engine checks each file's front matter before the turn, read through
// HomeDirectory (never through a link); a malformed one refuses the turn
// with the file and the field named, rather than the agent silently
// running without it.

#include "agent/home_directory.h"
#include "core/result.h"

#include <QStringList>

namespace arizuko::agent {

// The names of the folder's skills (empty: none), or the first problem:
// error code `skills.malformed` (a sentence naming file and field) or a
// home error (a link, a file too large).
Result<QStringList> checkSkills(const HomeDirectory &home);

// One SKILL.md's front matter: the field at fault, or nothing when fine.
// `file` only names the place in the message.
Result<void> checkSkillFrontMatter(const QString &file, const QString &directoryName,
                                   const QByteArray &content);

} // namespace arizuko::agent
