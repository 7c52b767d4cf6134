#pragma once

// What a runner needs of this machine before it runs turns: a libvirt
// connection, the nwfilter defined, what dead engines left behind reaped,
// KVM or TCG decided (once, cached) and the secrets opened. Every step may
// block (libvirt, an OS keyring that takes seconds to answer), so the
// engine runs it on a worker and hears the outcome (the runner's own tests
// may wait for it: TurnRunner::startBlocking).

#include "core/result.h"
#include "host/host_status.h"
#include "libvirt/connection.h"
#include "libvirt/subnet_pool.h"
#include "turns/runner_settings.h"
#include "turns/turn_reaper.h"

#include <QFuture>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace arizuko::store {
class Store;
}
namespace arizuko::secrets {
class SecretStore;
}

namespace arizuko::turns {

struct HostStartup
{
    std::shared_ptr<libvirt::Connection> connection;
    libvirt::SubnetPool pool;
    ReapReport reaped;
    host::AcceleratorChoice accelerator;
    // Null when they did not open; a turn's plan then opens the secrets
    // itself and reports why they do not open.
    std::unique_ptr<secrets::SecretStore> secrets;
};

// Blocks. Fails with advice when libvirt is not reachable or the settings
// are wrong.
Result<HostStartup> prepareHost(store::Store &store, const RunnerSettings &settings);

// After a libvirtd restart the old connection stays dead: a fresh one for
// what starts next (what runs keeps its own until it ends).
void renewConnectionIfClosed(std::shared_ptr<libvirt::Connection> &connection, const QString &uri);

// prepareHost() on a worker of `pool` (its own store and libvirt
// connections, which it hands over), then `done` on `context`'s thread.
// The future lets the owner wait for a start-up still running.
QFuture<void> prepareHostInBackground(QThreadPool *pool, QObject *context, store::Store &store,
                                      const RunnerSettings &settings,
                                      std::function<void(Result<HostStartup>)> done);

} // namespace arizuko::turns
