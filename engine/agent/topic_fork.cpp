#include "agent/topic_fork.h"

#include "agent/session_files.h"
#include "folders/folders.h"
#include "store/store.h"

namespace arizuko::agent {

Result<TopicForkPlan> createTopicFork(store::Store &store, const QString &actor,
                                      const QString &folder, const QString &source,
                                      const QString &name)
{
    folders::Topics topics(store, actor);
    const auto parents = topics.list(folder);
    if (!parents)
        return parents.error();
    QString parentSession;
    for (const folders::Topic &topic : *parents) {
        if (topic.name == source)
            parentSession = topic.sessionId;
    }
    // Asked before the topic is made, so a folder without a home makes no fork.
    const Result<folders::Home> home = folders::Folders(store, actor).home(folder);
    if (!home)
        return home.error();
    auto forked = topics.fork(folder, source, name);
    if (!forked)
        return forked.error();
    return TopicForkPlan{*forked, store.dataDir(), *home, parentSession};
}

ForkedTopic copyForkedConversation(const TopicForkPlan &plan, qint64 maxBytes)
{
    ForkedTopic result{plan.topic, false, std::nullopt};
    const auto home = HomeDirectory::open(plan.dataDir, plan.home);
    if (!home) {
        result.copyError = home.error();
        return result;
    }
    const auto copied = forkAgentSession(plan.topic.agentKind, *home, plan.parentSession,
                                         plan.topic.sessionId, maxBytes);
    if (copied)
        result.sessionCopied = *copied;
    else if (copied.error().code == QLatin1String("home.too-large"))
        result.copyError = makeError(
            QStringLiteral("fork.too-large"),
            QStringLiteral("the conversation is larger than the %1 MiB a fork copies (%2)")
                .arg(maxBytes / (1024 * 1024))
                .arg(copied.error().message));
    else
        result.copyError = copied.error();
    return result;
}

Result<ForkedTopic> forkTopic(store::Store &store, const QString &actor, const QString &folder,
                              const QString &source, const QString &name)
{
    const auto plan = createTopicFork(store, actor, folder, source, name);
    if (!plan)
        return plan.error();
    return copyForkedConversation(*plan);
}

} // namespace arizuko::agent
