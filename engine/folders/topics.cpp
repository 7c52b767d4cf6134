#include "folders/topics.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_state.h"

#include <QUuid>
#include <algorithm>

namespace arizuko::folders {

using store::nowTimestamp;
using store::execute;
namespace {

Error topicNotFound(const QString &folder, const QString &name)
{
    return makeError(QStringLiteral("topic.not-found"),
                     QStringLiteral("topic '%1' does not exist in folder '%2'").arg(name, folder));
}

Error topicExists(const QString &folder, const QString &name)
{
    return makeError(QStringLiteral("topic.exists"),
                     QStringLiteral("topic '%1' already exists in folder '%2'").arg(name, folder));
}

Result<void> validate(const QString &folder, const QString &topic)
{
    if (const Result<void> valid = validateFolderPath(folder); !valid)
        return valid;
    return validateTopicName(topic);
}

// A kind of agent's name as its profile spells it: which kinds exist is
// the agent profiles' to say, above this layer.
bool isKindName(const QString &kind)
{
    return !kind.isEmpty() &&
           std::all_of(kind.begin(), kind.end(), [](QChar c) { return c >= u'a' && c <= u'z'; });
}

Result<void> refuseWhileATurnIsLive(const QSqlDatabase &db, const QString &folder,
                                    const QString &topic, const QString &verb)
{
    Result<QSqlQuery> live =
        execute(db,
                QStringLiteral(
                    "SELECT name, state FROM turns WHERE group_folder = ? AND topic = ? AND state "
                    "NOT IN %1 LIMIT 1")
                    .arg(turns::terminalStatesSql()),
                {folder, topic});
    if (!live)
        return live.error();
    if (live->next())
        return makeError(QStringLiteral("topic.busy"),
                         QStringLiteral("cannot %1 topic '%2' of folder '%3' now: turn %4 is %5; "
                                        "cancel it or wait until it has ended")
                             .arg(verb, topic, folder, live->value(0).toString(),
                                  live->value(1).toString()));
    return {};
}

} // namespace

Topics::Topics(store::Store &store, QString actor)
    : m_store(store)
    , m_actor(std::move(actor))
{}

Result<QList<Topic>> Topics::select(const QString &where, const QVariantList &values) const
{
    Result<QSqlQuery> query =
        execute(m_store.database(),
                QStringLiteral("SELECT group_folder, topic, session_id, parent_topic, "
                               "forked_at, created_at, agent_kind FROM sessions %1 "
                               "ORDER BY group_folder, created_at, topic")
                    .arg(where),
                values);
    if (!query)
        return query.error();
    QList<Topic> topics;
    while (query->next()) {
        topics.append({query->value(0).toString(), query->value(1).toString(),
                       query->value(2).toString(), query->value(3).toString(),
                       query->value(4).toString(), query->value(5).toString(),
                       query->value(6).toString()});
    }
    return topics;
}

Result<bool> Topics::exists(const QString &folder, const QString &name) const
{
    const Result<QList<Topic>> found =
        select(QStringLiteral("WHERE group_folder = ? AND topic = ?"), {folder, name});
    if (!found)
        return found.error();
    return !found->isEmpty();
}

Result<QList<Topic>> Topics::list(const QString &folder) const
{
    if (folder.isEmpty())
        return select({}, {});
    return select(QStringLiteral("WHERE group_folder = ?"), {folder});
}

Result<Topic> Topics::insert(Topic topic, const QString &auditKind)
{
    const QSqlDatabase db = m_store.database();
    topic.sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    topic.createdAt = nowTimestamp();
    if (!topic.parentTopic.isEmpty())
        topic.forkedAt = topic.createdAt;
    QVariantList values{topic.folder,
                        topic.name,
                        topic.sessionId,
                        topic.parentTopic.isEmpty() ? QVariant() : QVariant(topic.parentTopic),
                        topic.forkedAt.isEmpty() ? QVariant() : QVariant(topic.forkedAt),
                        topic.createdAt};
    // A fork keeps its source's kind; a new topic takes the store's default.
    const bool kindGiven = !topic.agentKind.isEmpty();
    if (kindGiven)
        values << topic.agentKind;
    Result<QSqlQuery> inserted =
        execute(db,
                QStringLiteral("INSERT INTO sessions (group_folder, topic, session_id, "
                               "parent_topic, forked_at, created_at%1) VALUES (?, ?, ?, ?, ?, ?%2) "
                               "RETURNING agent_kind")
                    .arg(kindGiven ? QStringLiteral(", agent_kind") : QString(),
                         kindGiven ? QStringLiteral(", ?") : QString()),
                values);
    if (!inserted)
        return inserted.error();
    if (inserted->next())
        topic.agentKind = inserted->value(0).toString();
    QJsonObject detail{{QStringLiteral("topic"), topic.name},
                       {QStringLiteral("session_id"), topic.sessionId}};
    if (!topic.parentTopic.isEmpty())
        detail.insert(QStringLiteral("from"), topic.parentTopic);
    if (const Result<qint64> audited =
            audit::AuditLog(m_store).record(m_actor, auditKind, topic.folder, detail);
        !audited)
        return audited.error();
    return topic;
}

Result<Topic> Topics::add(const QString &folder, const QString &name)
{
    if (const Result<void> valid = validate(folder, name); !valid)
        return valid.error();
    return audit::AuditLog(m_store).writeAudited([&]() -> Result<Topic> {
        Result<QSqlQuery> folderRow = execute(
            m_store.database(), QStringLiteral("SELECT 1 FROM groups WHERE folder = ?"), {folder});
        if (!folderRow)
            return folderRow.error();
        if (!folderRow->next())
            return makeError(QStringLiteral("folder.not-found"),
                             QStringLiteral("folder '%1' does not exist").arg(folder));
        const Result<bool> taken = exists(folder, name);
        if (!taken)
            return taken.error();
        if (*taken)
            return topicExists(folder, name);
        return insert(Topic{folder, name, {}, {}, {}, {}, {}}, QStringLiteral("topic.add"));
    });
}

Result<Topic> Topics::fork(const QString &folder, const QString &source, const QString &name)
{
    if (const Result<void> valid = validate(folder, source); !valid)
        return valid.error();
    if (!name.isEmpty()) {
        if (const Result<void> valid = validateTopicName(name); !valid)
            return valid.error();
    }
    return audit::AuditLog(m_store).writeAudited([&]() -> Result<Topic> {
        const Result<QList<Topic>> sourceTopic =
            select(QStringLiteral("WHERE group_folder = ? AND topic = ?"), {folder, source});
        if (!sourceTopic)
            return sourceTopic.error();
        if (sourceTopic->isEmpty())
            return topicNotFound(folder, source);

        QString forkName = name;
        if (forkName.isEmpty()) {
            for (int attempt = 1; forkName.isEmpty(); ++attempt) {
                const QString candidate =
                    attempt == 1 ? source + QStringLiteral("-fork")
                                 : QStringLiteral("%1-fork-%2").arg(source).arg(attempt);
                const Result<bool> taken = exists(folder, candidate);
                if (!taken)
                    return taken.error();
                if (!*taken)
                    forkName = candidate;
            }
            if (const Result<void> valid = validateTopicName(forkName); !valid)
                return valid.error();
        } else {
            const Result<bool> taken = exists(folder, forkName);
            if (!taken)
                return taken.error();
            if (*taken)
                return topicExists(folder, forkName);
        }
        // The copied session is the source agent's: the fork keeps its kind.
        return insert(Topic{folder, forkName, {}, source, {}, {}, sourceTopic->first().agentKind},
                      QStringLiteral("topic.fork"));
    });
}

Result<Topic> Topics::rename(const QString &folder, const QString &from, const QString &to)
{
    if (const Result<void> valid = validate(folder, from); !valid)
        return valid.error();
    if (const Result<void> valid = validateTopicName(to); !valid)
        return valid.error();
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<Topic> {
        const QSqlDatabase db = m_store.database();
        const Result<bool> fromExists = exists(folder, from);
        if (!fromExists)
            return fromExists.error();
        if (!*fromExists)
            return topicNotFound(folder, from);
        const Result<bool> toExists = exists(folder, to);
        if (!toExists)
            return toExists.error();
        if (*toExists)
            return topicExists(folder, to);

        // messages reference (group_folder, topic) without ON UPDATE CASCADE:
        // check the keys at commit, once both tables carry the new name.
        if (const Result<QSqlQuery> deferred =
                execute(db, QStringLiteral("PRAGMA defer_foreign_keys = ON"));
            !deferred)
            return deferred.error();
        // A live turn would go on under the old name (its reply, its
        // records); its past turns and observations follow the topic.
        if (const Result<void> idle =
                refuseWhileATurnIsLive(db, folder, from, QStringLiteral("rename"));
            !idle)
            return idle.error();
        const QStringList renames = {
            QStringLiteral("UPDATE sessions SET topic = ? WHERE group_folder = ? AND topic = ?"),
            QStringLiteral("UPDATE messages SET topic = ? WHERE group_folder = ? AND topic = ?"),
            QStringLiteral(
                "UPDATE sessions SET parent_topic = ? WHERE group_folder = ? AND parent_topic = ?"),
            QStringLiteral("UPDATE turns SET topic = ? WHERE group_folder = ? AND topic = ?"),
            QStringLiteral(
                "UPDATE observations SET observer_topic = ? WHERE observer_folder = ? AND "
                "observer_topic = ?"),
        };
        for (const QString &statement : renames) {
            if (const Result<QSqlQuery> done = execute(db, statement, {to, folder, from}); !done)
                return done.error();
        }
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("topic.rename"), folder,
                           {{QStringLiteral("from"), from}, {QStringLiteral("to"), to}});
            !audited)
            return audited.error();
        const Result<QList<Topic>> renamed =
            select(QStringLiteral("WHERE group_folder = ? AND topic = ?"), {folder, to});
        if (!renamed)
            return renamed.error();
        return renamed->first();
    });
}

Result<void> Topics::remove(const QString &folder, const QString &name)
{
    if (const Result<void> valid = validate(folder, name); !valid)
        return valid;
    const QSqlDatabase db = m_store.database();
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        const Result<bool> found = exists(folder, name);
        if (!found)
            return found.error();
        if (!*found)
            return topicNotFound(folder, name);
        if (const Result<void> idle =
                refuseWhileATurnIsLive(db, folder, name, QStringLiteral("remove"));
            !idle)
            return idle;
        // Messages and observations go with the session row (ON DELETE
        // CASCADE), the turns' events with the turns.
        for (const QString &statement :
             {QStringLiteral("DELETE FROM turns WHERE group_folder = ? AND topic = ?"),
              QStringLiteral("DELETE FROM sessions WHERE group_folder = ? AND topic = ?")}) {
            if (const Result<QSqlQuery> deleted = execute(db, statement, {folder, name});
                !deleted)
                return deleted.error();
        }
        if (const Result<qint64> audited = log.record(m_actor, QStringLiteral("topic.rm"), folder,
                                                      {{QStringLiteral("topic"), name}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<void> Topics::setSessionId(const QString &folder, const QString &name,
                                  const QString &sessionId, const QString &why)
{
    if (const Result<void> valid = validate(folder, name); !valid)
        return valid.error();
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<void> {
        const QSqlDatabase db = m_store.database();
        const Result<QSqlQuery> updated =
            execute(db,
                    QStringLiteral(
                        "UPDATE sessions SET session_id = ? WHERE group_folder = ? AND topic = ?"),
                    {sessionId, folder, name});
        if (!updated)
            return updated.error();
        if (updated->numRowsAffected() != 1)
            return topicNotFound(folder, name);
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("topic.session"), folder,
                           {{QStringLiteral("topic"), name},
                            {QStringLiteral("session_id"), sessionId},
                            {QStringLiteral("why"), why}});
            !audited)
            return audited.error();
        return {};
    });
}

Result<bool> Topics::useAgent(const QString &folder, const QString &name, const QString &kind)
{
    if (const Result<void> valid = validate(folder, name); !valid)
        return valid.error();
    if (!isKindName(kind))
        return makeError(QStringLiteral("topic.bad-agent"),
                         QStringLiteral("agent '%1' is not the name of a kind of agent").arg(kind));
    audit::AuditLog log(m_store);
    return log.writeAudited([&]() -> Result<bool> {
        const Result<QList<Topic>> found =
            select(QStringLiteral("WHERE group_folder = ? AND topic = ?"), {folder, name});
        if (!found)
            return found.error();
        if (found->isEmpty())
            return topicNotFound(folder, name);
        const QString before = found->first().agentKind;
        if (before == kind)
            return false;
        const QString fresh = QUuid::createUuid().toString(QUuid::WithoutBraces);
        if (const Result<QSqlQuery> updated =
                execute(m_store.database(),
                        QStringLiteral("UPDATE sessions SET agent_kind = ?, session_id = ? "
                                       "WHERE group_folder = ? AND topic = ?"),
                        {kind, fresh, folder, name});
            !updated)
            return updated.error();
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("topic.agent"), folder,
                           {{QStringLiteral("topic"), name},
                            {QStringLiteral("from"), before},
                            {QStringLiteral("to"), kind},
                            {QStringLiteral("session_id"), fresh}});
            !audited)
            return audited.error();
        return true;
    });
}

} // namespace arizuko::folders
