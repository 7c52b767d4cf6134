#pragma once

// Owning handles for libvirt objects: each frees its reference on
// destruction. Freeing a handle never destroys the object itself; that is
// the job of the classes that own a turn's network and domain.

#include <libvirt/libvirt.h>
#include <memory>

namespace arizuko::libvirt {

struct ConnectionDeleter
{
    void operator()(virConnectPtr connection) const { virConnectClose(connection); }
};
struct NetworkDeleter
{
    void operator()(virNetworkPtr network) const { virNetworkFree(network); }
};
struct DomainDeleter
{
    void operator()(virDomainPtr domain) const { virDomainFree(domain); }
};
struct FilterDeleter
{
    void operator()(virNWFilterPtr filter) const { virNWFilterFree(filter); }
};
struct FilterBindingDeleter
{
    void operator()(virNWFilterBindingPtr binding) const { virNWFilterBindingFree(binding); }
};

using ConnectionHandle = std::unique_ptr<virConnect, ConnectionDeleter>;
using NetworkHandle = std::unique_ptr<virNetwork, NetworkDeleter>;
using DomainHandle = std::unique_ptr<virDomain, DomainDeleter>;
using FilterHandle = std::unique_ptr<virNWFilter, FilterDeleter>;
using FilterBindingHandle = std::unique_ptr<virNWFilterBinding, FilterBindingDeleter>;

} // namespace arizuko::libvirt
