// pi: its sessions under ~/.pi/agent/sessions (--session-dir), its project
// configuration in .pi, .agents and its context file, the Anthropic
// Messages API, skills it loads itself, and no MCP: the folder's host
// tools do not reach it.

#include "agent/agent_profile.h"
#include "agent/session_files.h"
#include "agent/start_configuration.h"

namespace arizuko::agent {
namespace {

const QString piSessions = QStringLiteral(".pi/agent/sessions");

// pi keeps a session in sessions/<time>_<id>.jsonl.
Result<std::optional<QString>> findPiSession(const HomeDirectory &home, const QString &id)
{
    const auto names = home.entries(piSessions);
    if (!names)
        return names.error();
    const QString suffix = QStringLiteral("_%1.jsonl").arg(id);
    for (const QString &name : names->value_or(QStringList())) {
        if (name.endsWith(suffix))
            return std::optional<QString>(piSessions + u'/' + name);
    }
    return std::optional<QString>();
}

// The session's id is in its header line.
Result<bool> forkPiSession(const HomeDirectory &home, const QString &fromId, const QString &toId,
                           qint64 maxBytes)
{
    return forkSessionBeside(home, fromId, toId, maxBytes, findPiSession, [&](QJsonObject &entry) {
        if (entry.value(QStringLiteral("type")).toString() == QLatin1String("session") &&
            entry.value(QStringLiteral("id")).toString() == fromId)
            entry.insert(QStringLiteral("id"), toId);
    });
}

} // namespace

const AgentProfile piProfile{
    .name = QLatin1StringView("pi"),
    .title = QLatin1StringView("pi"),
    .sessionFile = findPiSession,
    .forkSession = forkPiSession,
    .startConfiguration = piStartConfiguration,
    .openAiResponses = false,
    .skillsIndexInPrompt = false,
    .hostTools = false,
};

} // namespace arizuko::agent
