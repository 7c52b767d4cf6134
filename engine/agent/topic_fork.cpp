#include "agent/topic_fork.h"

#include "agent/claude_session.h"
#include "folders/folders.h"

namespace arizuko::agent {

Result<ForkedTopic> forkTopic(store::Store &store, const QString &actor, const QString &folder,
                              const QString &source, const QString &name)
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
    auto forked = topics.fork(folder, source, name);
    if (!forked)
        return forked.error();
    ForkedTopic result{*forked, false, std::nullopt};
    const auto home = HomeDirectory::open(folders::Folders(store, actor).homePath(folder));
    if (!home) {
        result.copyError = home.error();
        return result;
    }
    const auto copied = forkClaudeSession(*home, parentSession, forked->sessionId);
    if (copied)
        result.sessionCopied = *copied;
    else
        result.copyError = copied.error();
    return result;
}

} // namespace arizuko::agent
