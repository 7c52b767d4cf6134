#pragma once

// The first-run check: is this data directory new (no settings saved, no
// folders), and what is still missing before a turn can run: libvirt
// access, the guest image, a model. Also makes the demo folder the guide's
// demo turn runs in.

#include "core/result.h"
#include "host/host_status.h"
#include "turns/runner_settings.h"

#include <QStringList>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

// True when nothing was set up in this data directory yet.
Result<bool> isFirstRun(store::Store &store);

struct FirstRunCheck
{
    host::HostStatus machine;
    ModelProviderChoice provider = ModelProviderChoice::Auto;
    QStringList credentials; // e.g. "ANTHROPIC_API_KEY (every folder)"
    QString credentialProblem; // the secrets could not be listed, and why

    bool modelReady() const
    {
        return provider == ModelProviderChoice::Demo || !credentials.isEmpty();
    }
};

// Slow (libvirt, the KVM decision, maybe a keyring): call it from a worker.
FirstRunCheck checkFirstRun(store::Store &store, const RunnerSettings &settings);

// Creates the folder `demo` (or demo-2, demo-3, … when taken) with a topic
// `demo`, for a demo turn; returns the folder's path.
Result<QString> createDemoFolder(store::Store &store, const QString &actor);

inline const QString demoTopic = QStringLiteral("demo");

} // namespace arizuko::turns
