#include "store/store_work.h"

#include "store/store.h"

namespace arizuko::store {

StoreWork::StoreWork(Store &store)
    : m_store(&store)
{
    const std::lock_guard lock(store.m_workMutex);
    ++store.m_work;
}

StoreWork::StoreWork(const StoreWork &other)
    : StoreWork(*other.m_store)
{}

StoreWork::~StoreWork()
{
    // Notified under the lock: ~Store cannot wake, and free the condition,
    // before notify_all has returned.
    const std::lock_guard lock(m_store->m_workMutex);
    if (--m_store->m_work == 0)
        m_store->m_workDone.notify_all();
}

Store &StoreWork::store() const
{
    return *m_store;
}

} // namespace arizuko::store
