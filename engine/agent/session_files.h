#pragma once

// A topic's conversation as each kind of agent keeps it in the folder home
// (Claude Code: claude_session.h; Codex: a rollout file under
// ~/.codex/sessions/YYYY/MM/DD; pi: a file under ~/.pi/agent/sessions):
// whether a turn can resume it, and copying it for a fork under a new id.
// Every access goes through HomeDirectory, since the agent owns the files.

#include "agent/home_directory.h"
#include "core/result.h"

#include <QJsonObject>
#include <QString>
#include <functional>
#include <optional>

namespace arizuko::agent {

enum class SessionFileState
{
    Absent,
    Usable,
    Unusable, // present but not resumable: not JSON lines, a link, too large
};

struct SessionFileCheck
{
    SessionFileState state = SessionFileState::Absent;
    QString problem; // why it is unusable, for the transcript
    // Where it is, or will be, relative to the home; empty while the kind
    // cannot say (Claude Code names its file by the id before writing it;
    // Codex and pi do not).
    QString file = {};
};

// Larger than any conversation an agent compacts down to; a bigger file
// is not something the engine reads into memory on the agent's word.
inline constexpr qint64 maxSessionBytes = 256LL * 1024 * 1024;

// The session ids of all three agents are UUIDs.
bool validSessionId(const QString &id);

// The file at `relative` as a conversation: absent, JSON lines, or why not.
SessionFileCheck inspectSessionFile(const HomeDirectory &home, const QString &relative);

// Copies the JSON lines at `from` to a new file `to`, each line passed
// through `rewrite` (which names the new session). False when `from` does
// not exist.
Result<bool> copySessionFile(const HomeDirectory &home, const QString &from, const QString &to,
                             qint64 maxBytes, const std::function<void(QJsonObject &)> &rewrite);

// The file of `sessionId` for the agent `kind` (its profile's name;
// folders::Topic::agentKind), relative to the home, or nullopt while the
// agent has written none.
Result<std::optional<QString>> findSessionFile(const QString &kind, const HomeDirectory &home,
                                               const QString &sessionId);

// Reads the agent's session file (up to maxSessionBytes; for Codex after a
// walk of its session tree): call it on a worker, never on a thread that
// serves turns.
SessionFileCheck inspectAgentSession(const QString &kind, const HomeDirectory &home,
                                     const QString &sessionId);

// For tests: called on the thread inspectAgentSession() reads on, before it
// reads (to see which thread that is, or to hold the read). Null in the program.
using SessionInspectionHook = void (*)();
void setSessionInspectionHook(SessionInspectionHook hook);

// The conversation of `fromId` copied for the session `toId`, so the agent
// resumes it as its own; false when the source has none (the fork starts
// fresh). A source over `maxBytes` is an error (home.too-large).
Result<bool> forkAgentSession(const QString &kind, const HomeDirectory &home, const QString &fromId,
                              const QString &toId, qint64 maxBytes = maxSessionBytes);

// How a kind finds the file of a session (findSessionFile).
using SessionFinder = Result<std::optional<QString>> (*)(const HomeDirectory &home,
                                                         const QString &sessionId);

// A fork for an agent whose file's name ends in its session id (Codex, pi):
// the file `find` names for `fromId` copied beside itself with `toId` at the
// end of its name, each line passed through `rewrite`; false when there is
// none.
Result<bool> forkSessionBeside(const HomeDirectory &home, const QString &fromId,
                               const QString &toId, qint64 maxBytes, SessionFinder find,
                               const std::function<void(QJsonObject &)> &rewrite);

} // namespace arizuko::agent
