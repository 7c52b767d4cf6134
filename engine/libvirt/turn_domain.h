#pragma once

// A turn's VM: a transient libvirt domain created with
// VIR_DOMAIN_START_AUTODESTROY (it dies with our connection, so a crashed
// engine leaves no VM), booting the guest image directly, seeing the
// folder's home and nothing else of the host.

#include "core/result.h"
#include "host/host_status.h"
#include "libvirt/connection.h"
#include "libvirt/turn_filter.h"

#include <QString>
#include <memory>

namespace arizuko::libvirt {

// How the turn's NIC meets its filter.
enum class FilterMode
{
    // libvirt makes the tap on the turn's network and binds the filter
    // while it starts the domain (~1.4 s of ebtables/iptables before QEMU runs).
    Classic,
    // The engine made the tap on the bridge already (turn_tap.h) and binds
    // the filter itself beside the boot (turn_filter_binding.h); the
    // domain takes the tap as it is.
    Pretap,
};

struct TurnDomainSpec
{
    QString name;  // az-<turn8>, like the turn's network
    QString uuid;  // also the filter binding's owner in Pretap mode
    QString owner; // the engine's "pid:starttime", see turn_owner.h
    host::Accelerator accelerator = host::Accelerator::Tcg;
    int memoryMiB = 1024;
    int vcpus = 1;

    QString kernel;
    QString initramfs;
    QString rootImage; // attached read-only as virtio-blk vda
    QString kernelCommandLine;

    QString homeDirectory; // shared read-write over virtio-9p, mount tag "home"

    FilterMode filterMode = FilterMode::Classic;
    QString networkName; // Classic: the network libvirt attaches the tap to
    QString macAddress;
    QString tapName; // the NIC's host side, named after the turn
    TurnFilterParameters filter; // Classic: bound by libvirt with the NIC

    QString turnSocketPath; // org.arizuko.turn, a UNIX socket QEMU listens on
    QString mcpSocketPath;  // org.arizuko.mcp
    QString consoleLogPath; // the serial console

    // QEMU runs as this user for the domain, so files the guest writes into
    // the home belong to the desktop user and QEMU can read the image in a
    // 0700 home.
    uint uid = 0;
    uint gid = 0;
};

QString turnDomainXml(const TurnDomainSpec &spec);

// A locally administered MAC in QEMU's 52:54:00 range, random per turn.
QString randomMacAddress();

class TurnDomain
{
public:
    static Result<std::unique_ptr<TurnDomain>> create(std::shared_ptr<Connection> connection,
                                                      const TurnDomainSpec &spec);
    ~TurnDomain();
    TurnDomain(const TurnDomain &) = delete;
    TurnDomain &operator=(const TurnDomain &) = delete;

    QString name() const { return m_name; }

    // Stops the VM at once (no shutdown: the turn is over and its home is a
    // 9p share QEMU writes through). Later calls and the destructor do nothing.
    Result<void> destroy();

    TurnDomain(std::shared_ptr<Connection> connection, DomainHandle handle, QString name);

private:
    std::shared_ptr<Connection> m_connection;
    DomainHandle m_handle;
    QString m_name;
};

// Destroys an active domain by name; one already gone is not an error.
Result<void> destroyDomainByName(Connection &connection, const QString &name);

} // namespace arizuko::libvirt
