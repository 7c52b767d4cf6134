#pragma once

// Cancelling a turn that another engine process runs (`arizukoctl cancel`
// while the window or `arizukoctl run` owns it): the request goes through
// the store, which the owning engine polls, and the caller waits for the
// turn to end.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QString>
#include <chrono>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

// The turn by id, id prefix or az-<name>, as it ended. Refuses a turn that
// already ended or whose engine is gone (the next engine start reaps it),
// and fails when it has not ended within `wait`.
Result<TurnRecord> cancelRemoteTurn(store::Store &store, const QString &reference,
                                    std::chrono::milliseconds wait = std::chrono::seconds(10));

} // namespace arizuko::turns
