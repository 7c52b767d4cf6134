#pragma once

// Forking a topic: a new topic with its own session that starts from a copy
// of the parent's conversation, so both can go on without seeing the other.
// In two halves: the topic is made in the store (the calling thread's), and
// the conversation is copied after, on any thread, since it can be large.

#include "core/result.h"
#include "folders/folders.h"
#include "folders/topics.h"

#include <optional>

namespace arizuko::agent {

// The most of a conversation a fork copies: a larger one is refused and
// the fork starts afresh. Far above a compacted conversation, and a copy
// this size takes a worker a fraction of a second.
inline constexpr qint64 maxForkedSessionBytes = 64LL * 1024 * 1024;

struct ForkedTopic
{
    folders::Topic topic;
    bool sessionCopied = false;
    // Set when the parent's conversation could not be copied (a link, a
    // damaged file, over the size limit): the fork exists and its first
    // turn starts afresh.
    std::optional<Error> copyError;
};

// What the copy needs, none of it the store.
struct TopicForkPlan
{
    folders::Topic topic;
    QString dataDir;
    folders::Home home;
    QString parentSession;
};

// Creates the fork's topic; only the store is touched.
Result<TopicForkPlan> createTopicFork(store::Store &store, const QString &actor,
                                      const QString &folder, const QString &source,
                                      const QString &name = {});
// Copies the parent's conversation for the fork; safe on a worker thread.
ForkedTopic copyForkedConversation(const TopicForkPlan &plan,
                                   qint64 maxBytes = maxForkedSessionBytes);

// Both halves on the calling thread (arizukoctl topic fork).
Result<ForkedTopic> forkTopic(store::Store &store, const QString &actor, const QString &folder,
                              const QString &source, const QString &name = {});

} // namespace arizuko::agent
