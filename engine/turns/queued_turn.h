#pragma once

// A turn request checked and recorded as queued: the folder exists, the
// prompt is not empty, and the turn's row (its id, its az-<turn8> name and
// the engine process that owns it) is in the store.

#include "core/result.h"
#include "turn_records/turn_records.h"
#include "turns/engine_process.h"
#include "turns/turn_request.h"

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

Result<TurnRecord> recordQueuedTurn(store::Store &store, TurnRecords &records,
                                    const TurnRequest &request, const EngineProcess &engine);

} // namespace arizuko::turns
