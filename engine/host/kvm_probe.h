#pragma once

// Tells whether hardware virtualization really runs guest code here: a
// /dev/kvm that opens is not enough (on some nested hosts vCPUs hang), so
// the probe runs a one-instruction guest and waits for it to halt.

#include <QString>

#include <chrono>

namespace arizuko::host {

struct KvmProbeResult
{
    bool works = false;
    QString detail; // why not, or what was proven
};

KvmProbeResult probeKvm(std::chrono::milliseconds timeout = std::chrono::seconds(2));

} // namespace arizuko::host
