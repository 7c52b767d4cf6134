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

struct Skill
{
    QString name;
    QString description;
};

// The folder's skills (empty: none), or the first problem: error code
// `skills.malformed` (a sentence naming file and field) or a home error (a
// link, a file too large).
Result<QList<Skill>> checkSkills(const HomeDirectory &home);

// One SKILL.md's front matter: its description, or the field at fault.
// `file` only names the place in the message.
Result<QString> checkSkillFrontMatter(const QString &file, const QString &directoryName,
                                      const QByteArray &content);

// The <skills> index put before a Codex prompt, as arizuko does: Codex
// loads skills only from .agents/skills, so the folder's skills/ reach it
// as this list of names, descriptions and SKILL.md paths in the guest,
// which it reads when a task matches. Empty for no skills.
QString skillsIndex(const QList<Skill> &skills, const QString &guestHome);

} // namespace arizuko::agent
