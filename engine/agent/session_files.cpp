#include "agent/session_files.h"

#include "agent/claude_session.h"

#include <QJsonDocument>
#include <QUuid>
#include <atomic>

namespace arizuko::agent {
namespace {

std::atomic<SessionInspectionHook> inspectionHook{nullptr};

const QString codexSessions = QStringLiteral(".codex/sessions");
const QString piSessions = QStringLiteral(".pi/agent/sessions");

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

// pi keeps a session in sessions/<time>_<id>.jsonl (--session-dir).
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

// The session's id is in one line of each agent's file: Codex's
// session_meta payload, pi's session header.
void renameSession(const QString &kind, QJsonObject &entry, const QString &fromId,
                   const QString &toId)
{
    const QString type = entry.value(QStringLiteral("type")).toString();
    if (kind == QLatin1String("codex") && type == QLatin1String("session_meta")) {
        QJsonObject payload = entry.value(QStringLiteral("payload")).toObject();
        if (payload.value(QStringLiteral("id")).toString() == fromId) {
            payload.insert(QStringLiteral("id"), toId);
            entry.insert(QStringLiteral("payload"), payload);
        }
    } else if (kind == QLatin1String("pi") && type == QLatin1String("session") &&
               entry.value(QStringLiteral("id")).toString() == fromId) {
        entry.insert(QStringLiteral("id"), toId);
    }
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
    if (kind == QLatin1String("codex"))
        return findCodexRollout(home, sessionId);
    if (kind == QLatin1String("pi"))
        return findPiSession(home, sessionId);
    return std::optional<QString>(claudeSessionFile(sessionId));
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
    return inspectSessionFile(home, **file);
}

Result<bool> forkAgentSession(const QString &kind, const HomeDirectory &home, const QString &fromId,
                              const QString &toId, qint64 maxBytes)
{
    if (kind != QLatin1String("codex") && kind != QLatin1String("pi"))
        return forkClaudeSession(home, fromId, toId, maxBytes);
    if (!validSessionId(fromId) || !validSessionId(toId))
        return makeError(
            QStringLiteral("session.bad-id"),
            QStringLiteral("session ids must be UUIDs ('%1', '%2')").arg(fromId, toId));
    const auto from = findSessionFile(kind, home, fromId);
    if (!from)
        return from.error();
    if (!*from)
        return false;
    // The copy keeps the source's place and time in its name; only the id
    // (the end of the name, and the line that declares it) changes.
    QString to = **from;
    to.replace(to.size() - fromId.size() - 6, fromId.size(), toId);
    return copySessionFile(home, **from, to, maxBytes,
                           [&](QJsonObject &entry) { renameSession(kind, entry, fromId, toId); });
}

} // namespace arizuko::agent
