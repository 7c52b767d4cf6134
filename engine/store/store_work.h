#pragma once

// A worker's hold on the store. Work handed to another thread (a dialog's
// QtConcurrent job, say) may outlive the widget that asked for it, and the
// store's owner may drop the store meanwhile: while a StoreWork exists, the
// store's destructor waits for it instead of closing the connections under
// it. Take it where the store is surely alive (on the thread that owns it,
// when the work is started), move it into the work, and reach the store
// only through it there; the work drops it when it ends.

namespace arizuko::store {

class Store;

class StoreWork
{
public:
    explicit StoreWork(Store &store);
    StoreWork(const StoreWork &other);
    StoreWork &operator=(const StoreWork &) = delete;
    ~StoreWork();

    Store &store() const;

private:
    Store *m_store;
};

} // namespace arizuko::store
