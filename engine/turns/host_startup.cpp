#include "turns/host_startup.h"

#include "core/actors.h"
#include "core/run_on_worker.h"
#include "libvirt/machine_status.h"
#include "libvirt/turn_filter.h"
#include "secrets/secret_store.h"

namespace arizuko::turns {

Result<HostStartup> prepareHost(store::Store &store, const RunnerSettings &settings)
{
    const auto pool = libvirt::SubnetPool::parse(settings.subnetPool);
    if (!pool)
        return pool.error();
    auto connection = libvirt::Connection::open(settings.libvirtUri);
    if (!connection)
        return connection.error();
    if (const Result<void> filter = libvirt::defineTurnFilter(**connection); !filter)
        return filter.error();
    TurnRecords records(store);
    auto reaped = reapOrphans(**connection, records, {});
    if (!reaped)
        return reaped.error();
    const host::AcceleratorChoice accelerator =
        libvirt::decideTurnAccelerator(**connection, settings);
    std::unique_ptr<secrets::SecretStore> secrets;
    if (settings.modelProvider != ModelProviderChoice::Demo) {
        if (auto opened = secrets::SecretStore::open(store, actors::turns))
            secrets = std::move(*opened);
    }
    return HostStartup{*connection, *pool, *reaped, accelerator, std::move(secrets)};
}

void renewConnectionIfClosed(std::shared_ptr<libvirt::Connection> &connection, const QString &uri)
{
    if (connection->isAlive())
        return;
    if (auto fresh = libvirt::Connection::open(uri))
        connection = *fresh;
}

QFuture<void> prepareHostInBackground(QThreadPool *pool, QObject *context, store::Store &store,
                                      const RunnerSettings &settings,
                                      std::function<void(Result<HostStartup>)> done)
{
    return runOnWorkerMoving(
        pool, context, [&store, settings] { return prepareHost(store, settings); },
        std::move(done));
}

} // namespace arizuko::turns
