#include "agent/session_files.h"

#include "agent/agent_profile.h"

#include <QJsonDocument>
#include <QUuid>
#include <atomic>

namespace arizuko::agent {
namespace {

std::atomic<SessionInspectionHook> inspectionHook{nullptr};

// A kind without a conversation of its own has none to find: Claude Code's
// place, as before kinds had profiles (the runner asks only for those that
// keep one).
const AgentProfile &profileOf(const QString &kind)
{
    const AgentProfile *profile = agentProfile(kind);
    return profile ? *profile : claudeProfile;
}

} // namespace

bool validSessionId(const QString &id)
{
    return !QUuid::fromString(id).isNull();
}

SessionFileCheck inspectSessionFile(const HomeDirectory &home, const QString &relative)
{
    const auto data = home.read(relative, maxSessionBytes);
    if (!data)
        return {SessionFileState::Unusable, data.error().message};
    if (!*data)
        return {SessionFileState::Absent, {}};
    int lineNumber = 0;
    int entries = 0;
    for (const QByteArray &line : (*data)->split('\n')) {
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            return {
                SessionFileState::Unusable,
                QStringLiteral("line %1 of the session file is not a JSON object").arg(lineNumber)};
        ++entries;
    }
    if (entries == 0)
        return {SessionFileState::Unusable, QStringLiteral("the session file is empty")};
    return {SessionFileState::Usable, {}};
}

Result<bool> copySessionFile(const HomeDirectory &home, const QString &from, const QString &to,
                             qint64 maxBytes, const std::function<void(QJsonObject &)> &rewrite)
{
    const auto data = home.read(from, maxBytes);
    if (!data)
        return data.error();
    if (!*data)
        return false;
    QByteArray copy;
    copy.reserve((*data)->size());
    for (const QByteArray &line : (*data)->split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonDocument document = QJsonDocument::fromJson(line);
        if (!document.isObject())
            return makeError(
                QStringLiteral("session.corrupt"),
                QStringLiteral("the session file %1 is not JSON lines; not copied").arg(from));
        QJsonObject entry = document.object();
        rewrite(entry);
        copy += QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n';
    }
    if (const Result<void> created = home.create(to, copy); !created)
        return created.error();
    return true;
}

Result<std::optional<QString>> findSessionFile(const QString &kind, const HomeDirectory &home,
                                               const QString &sessionId)
{
    return profileOf(kind).sessionFile(home, sessionId);
}

void setSessionInspectionHook(SessionInspectionHook hook)
{
    inspectionHook = hook;
}

SessionFileCheck inspectAgentSession(const QString &kind, const HomeDirectory &home,
                                     const QString &sessionId)
{
    if (const SessionInspectionHook hook = inspectionHook)
        hook();
    if (!validSessionId(sessionId))
        return {SessionFileState::Unusable,
                QStringLiteral("the topic's session id '%1' is not a UUID").arg(sessionId)};
    const auto file = findSessionFile(kind, home, sessionId);
    if (!file)
        return {SessionFileState::Unusable, file.error().message};
    if (!*file)
        return {SessionFileState::Absent, {}};
    SessionFileCheck check = inspectSessionFile(home, **file);
    check.file = **file;
    return check;
}

Result<bool> forkAgentSession(const QString &kind, const HomeDirectory &home, const QString &fromId,
                              const QString &toId, qint64 maxBytes)
{
    return profileOf(kind).forkSession(home, fromId, toId, maxBytes);
}

Result<bool> forkSessionBeside(const HomeDirectory &home, const QString &fromId,
                               const QString &toId, qint64 maxBytes, SessionFinder find,
                               const std::function<void(QJsonObject &)> &rewrite)
{
    if (!validSessionId(fromId) || !validSessionId(toId))
        return makeError(
            QStringLiteral("session.bad-id"),
            QStringLiteral("session ids must be UUIDs ('%1', '%2')").arg(fromId, toId));
    const auto from = find(home, fromId);
    if (!from)
        return from.error();
    if (!*from)
        return false;
    // The copy keeps the source's place and time in its name; only the id
    // (the end of the name, and the line that declares it) changes.
    QString to = **from;
    to.replace(to.size() - fromId.size() - 6, fromId.size(), toId);
    return copySessionFile(home, **from, to, maxBytes, rewrite);
}

} // namespace arizuko::agent
