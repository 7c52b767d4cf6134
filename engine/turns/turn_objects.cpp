#include "turns/turn_objects.h"

#include "libvirt/turn_filter_binding.h"
#include "libvirt/turn_tap.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

namespace arizuko::turns {
namespace {

// libvirtd may restart under a turn, which closes the turn's connection for
// good: its objects are then destroyed through a fresh connection, retried
// while the daemon comes back.
Result<void> destroyThroughNewConnection(
    const QString &uri, const std::function<Result<void>(libvirt::Connection &)> &destroy)
{
    const QDeadlineTimer deadline(20000);
    Error last;
    while (!deadline.hasExpired()) {
        auto connection = libvirt::Connection::open(uri);
        if (connection) {
            const Result<void> destroyed = destroy(**connection);
            if (destroyed)
                return {};
            last = destroyed.error();
        } else {
            last = connection.error();
        }
        QThread::msleep(250);
    }
    return last;
}

} // namespace

void destroyTurnObjects(TurnObjects &objects, const std::function<void()> &beforeUnbind,
                        QJsonObject &timings, QStringList &errors)
{
    const QString &uri = objects.libvirtUri;
    const QString &name = objects.name;
    const QString &tap = objects.tap;
    QElapsedTimer step;
    if (objects.domain) {
        step.start();
        Result<void> destroyed = objects.domain->destroy();
        if (!destroyed)
            destroyed = destroyThroughNewConnection(uri, [&name](libvirt::Connection &fresh) {
                return libvirt::destroyDomainByName(fresh, name);
            });
        if (!destroyed)
            errors << destroyed.error().message;
        objects.domain.reset();
        timings.insert(QStringLiteral("domain"), step.elapsed());
    }
    if (!tap.isEmpty()) {
        step.start();
        // The VM is gone already; a binding made after its deletion below
        // would stay behind.
        if (beforeUnbind)
            beforeUnbind();
        const auto &connection = objects.connection;
        Result<void> unbound = connection && connection->isAlive()
                                   ? libvirt::deleteTurnFilterBinding(*connection, tap)
                                   : Result<void>(makeError(QStringLiteral("libvirt.unreachable"),
                                                            QStringLiteral("connection closed")));
        if (!unbound)
            unbound = destroyThroughNewConnection(uri, [&tap](libvirt::Connection &fresh) {
                return libvirt::deleteTurnFilterBinding(fresh, tap);
            });
        if (!unbound)
            errors << unbound.error().message;
        if (const Result<void> deleted = libvirt::deleteTurnTap(tap); !deleted)
            errors << deleted.error().message;
        timings.insert(QStringLiteral("filter-and-tap"), step.elapsed());
    }
    if (objects.network && objects.network->isActive()) {
        step.start();
        Result<void> destroyed = objects.network->destroy();
        if (!destroyed)
            destroyed = destroyThroughNewConnection(uri, [&name](libvirt::Connection &fresh) {
                return libvirt::destroyNetworkByName(fresh, name);
            });
        if (!destroyed)
            errors << destroyed.error().message;
        timings.insert(QStringLiteral("network"), step.elapsed());
    }
    objects.network.reset();
}

} // namespace arizuko::turns
