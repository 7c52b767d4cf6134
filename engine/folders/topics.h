#pragma once

// Topics: threads inside a folder, each with its own agent session id.
// A fork starts a new session and records the topic it came from.

#include "core/result.h"

#include <QList>
#include <QString>

namespace arizuko::store {
class Store;
}

namespace arizuko::folders {

struct Topic
{
    QString folder;
    QString name;
    QString sessionId;
    QString parentTopic; // empty unless forked
    QString forkedAt;    // empty unless forked
    QString createdAt;
    // The kind of agent whose session sessionId is, by its profile's name
    // (agent/agent_profile.h). A topic added before its first turn holds
    // the store's default (migration 0007: agent::defaultAgentProfile()).
    QString agentKind;
};

class Topics
{
public:
    Topics(store::Store &store, QString actor);

    Result<Topic> add(const QString &folder, const QString &name);
    // Topics of `folder`, or of every folder when `folder` is empty.
    Result<QList<Topic>> list(const QString &folder = {}) const;
    // A new topic with a new session id whose parent is `source`; named
    // `<source>-fork`, `<source>-fork-2`, … when `name` is empty.
    Result<Topic> fork(const QString &folder, const QString &source, const QString &name = {});
    // Renames the topic, its messages and the parent name of its forks.
    Result<Topic> rename(const QString &folder, const QString &from, const QString &to);
    // Removes the topic with its messages, its turns and their events, so
    // a topic later given the same name starts empty. Refused while a turn
    // of the topic is queued or running. The agent's files in the folder's
    // home stay.
    Result<void> remove(const QString &folder, const QString &name);
    // The agent session the topic's next turn continues: a fresh one when
    // the old session could not be resumed, or the id the agent reported.
    Result<void> setSessionId(const QString &folder, const QString &name,
                              const QString &sessionId, const QString &why);
    // Makes `kind` the topic's agent. A session belongs to one kind, so a
    // different kind starts a new session (audited as topic.agent); true
    // when it did, for the caller to say so. The same kind changes nothing.
    // Which kinds exist is the agent profiles' to say (the caller's to
    // check); a name that is not a lowercase word is refused here.
    Result<bool> useAgent(const QString &folder, const QString &name, const QString &kind);

private:
    Result<QList<Topic>> select(const QString &where, const QVariantList &values) const;
    Result<bool> exists(const QString &folder, const QString &name) const;
    Result<Topic> insert(Topic topic, const QString &auditKind);

    store::Store &m_store;
    QString m_actor;
};

} // namespace arizuko::folders
