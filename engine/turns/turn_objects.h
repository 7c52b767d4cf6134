#pragma once

// The libvirt objects behind one guest (a turn's, or a spare's before a
// turn adopts it, spare_pool.h) and their destruction, in the order that
// cuts the guest off first: the VM, then the filter binding and tap the
// engine made (Pretap mode), then the network.

#include "libvirt/connection.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_network.h"

#include <QJsonObject>
#include <QStringList>
#include <functional>
#include <memory>

namespace arizuko::turns {

struct TurnObjects
{
    QString libvirtUri;
    QString name; // az-<8 hex digits>: the domain's and the network's name
    std::shared_ptr<libvirt::Connection> connection;
    QString tap; // Pretap mode: the tap (and binding) the engine made
    std::unique_ptr<libvirt::TurnDomain> domain;
    std::unique_ptr<libvirt::TurnNetwork> network;
};

// Blocks for as long as libvirt takes, and retries through a fresh
// connection while libvirtd restarts. `beforeUnbind` waits for a binding
// still being made, which would otherwise stay behind. What took how long
// goes to `timings`, what could not be destroyed to `errors`; one failure
// does not keep the rest.
void destroyTurnObjects(TurnObjects &objects, const std::function<void()> &beforeUnbind,
                        QJsonObject &timings, QStringList &errors);

} // namespace arizuko::turns
