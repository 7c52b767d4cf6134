#pragma once

// Store work off the caller's thread: `work(store)` on a worker holding the
// store (StoreWork), then `done(result)` on context's thread, dropped unheard
// when context is gone first. The engine's item models and the Workspace
// read and write this way; users link Qt6::Concurrent.

#include "core/run_on_worker.h"
#include "store/store_work.h"

#include <utility>

namespace arizuko::store {

template<typename Work, typename Done>
void runStoreWork(QObject *context, Store &store, Work work, Done done)
{
    runOnWorker(
        context,
        [hold = StoreWork(store), work = std::move(work)]() mutable { return work(hold.store()); },
        std::move(done));
}

} // namespace arizuko::store
