// Codex: its threads as rollout files under ~/.codex/sessions/YYYY/MM/DD,
// its project configuration in .codex, the OpenAI Responses API, and the
// folder's skills as an index in its prompt.

#include "agent/agent_profile.h"
#include "agent/session_files.h"
#include "agent/start_configuration.h"

namespace arizuko::agent {
namespace {

const QString codexSessions = QStringLiteral(".codex/sessions");

// Codex keeps a thread in sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl;
// the id is what names it (`codex exec resume <id>` searches the same way).
Result<std::optional<QString>> findCodexRollout(const HomeDirectory &home, const QString &id)
{
    const QString suffix = QStringLiteral("-%1.jsonl").arg(id);
    QStringList directories{codexSessions};
    for (int depth = 0; depth < 3; ++depth) {
        QStringList deeper;
        for (const QString &directory : directories) {
            const auto names = home.entries(directory);
            if (!names)
                return names.error();
            for (const QString &name : names->value_or(QStringList()))
                deeper << directory + u'/' + name;
        }
        directories = deeper;
    }
    for (const QString &day : directories) {
        const auto names = home.entries(day);
        if (!names)
            return names.error();
        for (const QString &name : names->value_or(QStringList())) {
            if (name.startsWith(QLatin1String("rollout-")) && name.endsWith(suffix))
                return std::optional<QString>(day + u'/' + name);
        }
    }
    return std::optional<QString>();
}

// The thread's id is in its session_meta line's payload.
Result<bool> forkCodexThread(const HomeDirectory &home, const QString &fromId, const QString &toId,
                             qint64 maxBytes)
{
    return forkSessionBeside(
        home, fromId, toId, maxBytes, findCodexRollout, [&](QJsonObject &entry) {
            if (entry.value(QStringLiteral("type")).toString() != QLatin1String("session_meta"))
                return;
            QJsonObject payload = entry.value(QStringLiteral("payload")).toObject();
            if (payload.value(QStringLiteral("id")).toString() == fromId) {
                payload.insert(QStringLiteral("id"), toId);
                entry.insert(QStringLiteral("payload"), payload);
            }
        });
}

} // namespace

const AgentProfile codexProfile{
    .name = QLatin1StringView("codex"),
    .title = QLatin1StringView("Codex"),
    .sessionFile = findCodexRollout,
    .forkSession = forkCodexThread,
    .startConfiguration = codexStartConfiguration,
    .openAiResponses = true,
    .skillsIndexInPrompt = true,
    .hostTools = true,
};

} // namespace arizuko::agent
