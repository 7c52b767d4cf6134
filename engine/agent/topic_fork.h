#pragma once

// Forking a topic: a new topic with its own session that starts from a copy
// of the parent's conversation, so both can go on without seeing the other.

#include "core/result.h"
#include "folders/topics.h"

#include <optional>

namespace arizuko::agent {

struct ForkedTopic
{
    folders::Topic topic;
    bool sessionCopied = false;
    // Set when the parent's conversation could not be copied (a link, a
    // damaged file): the fork exists and its first turn starts afresh.
    std::optional<Error> copyError;
};

Result<ForkedTopic> forkTopic(store::Store &store, const QString &actor, const QString &folder,
                              const QString &source, const QString &name = {});

} // namespace arizuko::agent
