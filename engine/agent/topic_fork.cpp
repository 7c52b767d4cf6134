#include "agent/topic_fork.h"

#include "agent/claude_session.h"
#include "folders/folders.h"
#include "store/store.h"

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
    const Result<folders::Home> folderHome = folders::Folders(store, actor).home(folder);
    if (!folderHome) {
        result.copyError = folderHome.error();
        return result;
    }
    const auto home = HomeDirectory::open(store.dataDir(), *folderHome);
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
