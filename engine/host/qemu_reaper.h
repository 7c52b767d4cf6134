#pragma once

// Who reaps libvirt's QEMU processes on this host, and whether promptly.
// QEMU daemonizes, so it is reparented to the nearest subreaper above
// libvirtd, else to PID 1; libvirtd waits for that reaping on every domain
// destroy. A PID 1 that reaps orphans late (many container inits) adds
// seconds to every turn's teardown.

#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace arizuko::host {

struct ProcessInfo
{
    qint64 pid = 0;
    qint64 parent = 0;
    QString name;          // /proc/PID/comm
    QStringList arguments; // /proc/PID/cmdline
};

struct QemuReaper
{
    bool libvirtdFound = false; // false: not on this host (a remote URI), or not running
    QString reaper;             // "tini -s (pid 123)", "PID 1 process_api"
    bool prompt = true;
    QString advice; // set when not prompt: what to do
};

// Decides from libvirtd's ancestry: a `tini -s` or systemd above it, or a
// PID 1 known to reap at once (systemd, init, tini, dumb-init, catatonit),
// reaps promptly; any other PID 1 does not.
QemuReaper assessQemuReaper(const std::function<std::optional<ProcessInfo>(qint64)> &process,
                            std::optional<qint64> libvirtdPid);

// The same for this host's processes (/proc).
QemuReaper inspectQemuReaper();

} // namespace arizuko::host
