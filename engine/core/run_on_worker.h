#pragma once

// The one way engine code runs a blocking call (libvirt, a keyring, a store
// query, a large file copy) off its thread and then goes on: `work` on a
// worker of `pool`, then `done` on `context`'s thread with what `work`
// returned (nothing, when it returns void), through a watcher parented to
// `context`, so `done` never runs after the context is gone. The future
// lets a teardown wait for work still in flight. A user links
// Qt6::Concurrent.

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace arizuko {

template<typename Work, typename Done>
QFuture<std::invoke_result_t<Work>> runOnWorker(QThreadPool *pool, QObject *context, Work work,
                                                Done done)
{
    using Value = std::invoke_result_t<Work>;
    auto *watcher = new QFutureWatcher<Value>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done)]() mutable {
                         watcher->deleteLater();
                         if constexpr (std::is_void_v<Value>)
                             done();
                         else
                             done(watcher->result());
                     });
    QFuture<Value> future = QtConcurrent::run(pool, std::move(work));
    watcher->setFuture(future);
    return future;
}

// The same on Qt's global pool.
template<typename Work, typename Done>
QFuture<std::invoke_result_t<Work>> runOnWorker(QObject *context, Work work, Done done)
{
    return runOnWorker(QThreadPool::globalInstance(), context, std::move(work), std::move(done));
}

// The same for a value QFuture cannot carry, as it copies its result (a
// Result holding a unique_ptr), or one too large to copy: `work` leaves it
// in a slot and `done` takes it from there.
template<typename Work, typename Done>
QFuture<void> runOnWorkerMoving(QThreadPool *pool, QObject *context, Work work, Done done)
{
    using Value = std::invoke_result_t<Work>;
    auto slot = std::make_shared<std::optional<Value>>();
    return runOnWorker(
        pool, context, [slot, work = std::move(work)]() mutable { slot->emplace(work()); },
        [slot, done = std::move(done)]() mutable { done(std::move(**slot)); });
}

} // namespace arizuko
