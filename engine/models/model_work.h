#pragma once

// How the engine's item models reach the store without blocking their
// thread: reads and changes run on a worker (store::runStoreWork), and only
// what comes back touches the rows, on the model's thread.

#include "core/result.h"
#include "store/run_store_work.h"

#include <QObject>
#include <utility>

namespace arizuko::models {

// A model's reads, of which only the newest is applied: reads started one
// after the other may end in any order, and an older answer must not
// overwrite a newer one (the folder changed meanwhile, say).
class LatestRead
{
public:
    // `work(store)` on a worker, then on model's thread `apply(value)`, or
    // the model's failed(Error) when the read failed, unless another read
    // started since (or the model is gone). The LatestRead is a member of
    // the model.
    template<typename Model, typename Work, typename Apply>
    void start(Model *model, store::Store &store, Work work, Apply apply)
    {
        const quint64 serial = ++m_serial;
        store::runStoreWork(model, store, std::move(work),
                            [this, model, serial, apply = std::move(apply)](auto result) mutable {
                                if (serial != m_serial)
                                    return;
                                m_answered = serial;
                                if (!result) {
                                    emit model->failed(result.error());
                                    return;
                                }
                                apply(std::move(*result));
                            });
    }
    // A read started and not yet applied.
    bool pending() const { return m_answered != m_serial; }

private:
    quint64 m_serial = 0;
    quint64 m_answered = 0;
};

// A change on a worker; once it succeeded the model re-reads (reload()), and
// `done` hears the result either way, on the model's thread.
template<typename Model, typename Work, typename Done>
void changeThenReload(Model *model, store::Store &store, Work work, Done done)
{
    store::runStoreWork(model, store, std::move(work),
                        [model, done = std::move(done)](const auto &result) mutable {
                            if (result)
                                model->reload();
                            done(result);
                        });
}

// Whether a change worked, when its value (the rows it removed, say) is not
// what the model's caller hears.
template<typename T>
Result<void> withoutValue(const Result<T> &result)
{
    if (!result)
        return result.error();
    return {};
}

} // namespace arizuko::models
