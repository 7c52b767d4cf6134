#include "agent/claude_session.h"

namespace arizuko::agent {
namespace {

const QString guestHomeProject = QStringLiteral("-home-agent");

} // namespace

QString claudeSessionFile(const QString &sessionId)
{
    return QStringLiteral(".claude/projects/%1/%2.jsonl").arg(guestHomeProject, sessionId);
}

SessionFileCheck inspectClaudeSession(const HomeDirectory &home, const QString &sessionId)
{
    if (!validSessionId(sessionId))
        return {SessionFileState::Unusable,
                QStringLiteral("the topic's session id '%1' is not a UUID").arg(sessionId)};
    return inspectSessionFile(home, claudeSessionFile(sessionId));
}

Result<bool> forkClaudeSession(const HomeDirectory &home, const QString &fromId,
                               const QString &toId, qint64 maxBytes)
{
    if (!validSessionId(fromId) || !validSessionId(toId))
        return makeError(
            QStringLiteral("session.bad-id"),
            QStringLiteral("session ids must be UUIDs ('%1', '%2')").arg(fromId, toId));
    const QJsonValue newId(toId);
    return copySessionFile(home, claudeSessionFile(fromId), claudeSessionFile(toId), maxBytes,
                           [&](QJsonObject &entry) {
                               if (entry.value(QStringLiteral("sessionId")).toString() == fromId)
                                   entry.insert(QStringLiteral("sessionId"), newId);
                           });
}

} // namespace arizuko::agent
