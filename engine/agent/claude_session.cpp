#include "agent/claude_session.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace arizuko::agent {
namespace {

const QString guestHomeProject = QStringLiteral("-home-agent");

bool validSessionId(const QString &id)
{
    return !QUuid::fromString(id).isNull();
}

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
    const auto data = home.read(claudeSessionFile(sessionId), maxSessionBytes);
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

Result<bool> forkClaudeSession(const HomeDirectory &home, const QString &fromId,
                               const QString &toId, qint64 maxBytes)
{
    if (!validSessionId(fromId) || !validSessionId(toId))
        return makeError(
            QStringLiteral("session.bad-id"),
            QStringLiteral("session ids must be UUIDs ('%1', '%2')").arg(fromId, toId));
    const auto data = home.read(claudeSessionFile(fromId), maxBytes);
    if (!data)
        return data.error();
    if (!*data)
        return false;
    QByteArray copy;
    copy.reserve((*data)->size());
    const QJsonValue newId(toId);
    for (const QByteArray &line : (*data)->split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonDocument document = QJsonDocument::fromJson(line);
        if (!document.isObject())
            return makeError(QStringLiteral("session.corrupt"),
                             QStringLiteral("the session file of %1 is not JSON lines; "
                                            "not copied")
                                 .arg(fromId));
        QJsonObject entry = document.object();
        if (entry.value(QStringLiteral("sessionId")).toString() == fromId)
            entry.insert(QStringLiteral("sessionId"), newId);
        copy += QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n';
    }
    if (const Result<void> created = home.create(claudeSessionFile(toId), copy); !created)
        return created.error();
    return true;
}

QStringList claudeStartConfiguration(const HomeDirectory &home)
{
    static const QStringList readAtStart = {
        QStringLiteral("settings.json"), QStringLiteral("settings.local.json"),
        QStringLiteral("skills"),        QStringLiteral("agents"),
        QStringLiteral("commands"),      QStringLiteral("output-styles"),
        QStringLiteral("plugins")};
    const auto entries = home.entries(QStringLiteral(".claude"));
    if (!entries)
        return {QStringLiteral(".claude")};
    QStringList present;
    for (const QString &name : readAtStart) {
        if (entries->has_value() && (*entries)->contains(name))
            present << QStringLiteral(".claude/") + name;
    }
    return present;
}

} // namespace arizuko::agent
