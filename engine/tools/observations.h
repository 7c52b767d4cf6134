#pragma once

// observe_group's other half: a topic observing folders gets their new
// messages as context at the start of its next turn, capped by count and
// by characters so an observed folder cannot flood the observer's prompt.

#include "core/result.h"

#include <QString>

namespace arizuko::store {
class Store;
}

namespace arizuko::tools {

struct ObserveCaps
{
    int messages = 10;
    int characters = 4000;
};

// Starts (or keeps) observing `source`; only messages posted from now on count.
Result<void> observe(store::Store &store, const QString &folder, const QString &topic,
                     const QString &source);
// False when the topic was not observing `source`.
Result<bool> unobserve(store::Store &store, const QString &folder, const QString &topic,
                       const QString &source);

// The observed folders' messages since the last call, newest kept within
// the caps, as a block to put before the turn's prompt (empty: nothing
// new). Each source is asked of the grants (mcp:observe_group on it) at
// every call; a refused source's messages are skipped and the refusal
// audited (observation.refused). What was handed over, dropped by the caps
// or refused is not handed again.
Result<QString> takeObservedContext(store::Store &store, const QString &folder,
                                    const QString &topic, const ObserveCaps &caps = {});

} // namespace arizuko::tools
