#pragma once

// This process's share of the turns' generation (change_generations), so a
// watcher can tell another process's turns from its own: every connection
// of a store adds each bump of 'turns' to a row of its own, in the
// transaction of the change, through a TEMP trigger (the connection's
// alone, firing only for its changes). The row goes when the store closes.

#include <QString>

namespace arizuko::store {

class Store;

// That row's subject: "turns@<pid>.<store>", unique among open stores.
QString ownTurnsGenerationSubject(const Store &store);

} // namespace arizuko::store
