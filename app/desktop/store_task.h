#pragma once

// The window's one way to run store work off the GUI thread: `work(store)`
// on the global thread pool, holding the store (store/store_work.h) until it
// ends. A dialog or panel that goes meanwhile just drops the answer with its
// QFutureWatcher and never waits; the store's owner, when it drops the
// store, waits for the work instead of closing the store under it. The work
// gets the store as its argument: it never captures the widget's reference.

#include "store/store_work.h"

#include <QtConcurrent/QtConcurrentRun>

namespace arizuko::desktop {

template<typename Work>
auto runOnStore(store::Store &store, Work work)
{
    return QtConcurrent::run([hold = store::StoreWork(store), work = std::move(work)]() mutable {
        return work(hold.store());
    });
}

} // namespace arizuko::desktop
