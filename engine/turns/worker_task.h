#pragma once

// The one way the turn code runs a blocking call (libvirt, a tap, the
// filter's rules) off its thread: `work` on a worker of `pool`, then `done`
// on `context`'s thread, through a watcher parented to `context` (so `done`
// never runs after the context is gone). The future lets a teardown wait
// for work still in flight.

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>
#include <utility>

namespace arizuko::turns {

template<typename Work, typename Done>
QFuture<void> runOnWorker(QThreadPool *pool, QObject *context, Work work, Done done)
{
    auto *watcher = new QFutureWatcher<void>(context);
    QObject::connect(watcher, &QFutureWatcher<void>::finished, context,
                     [watcher, done = std::move(done)]() mutable {
                         watcher->deleteLater();
                         done();
                     });
    QFuture<void> future = QtConcurrent::run(pool, std::move(work));
    watcher->setFuture(future);
    return future;
}

} // namespace arizuko::turns
