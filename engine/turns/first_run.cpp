#include "turns/first_run.h"

#include "core/actors.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "libvirt/machine_status.h"
#include "secrets/secret_store.h"
#include "store/query.h"
#include "store/store.h"
#include "turns/model_provider.h"

namespace arizuko::turns {

Result<bool> isFirstRun(store::Store &store)
{
    auto query =
        store::execute(store.database(), QStringLiteral("SELECT (SELECT count(*) FROM settings) + "
                                                        "(SELECT count(*) FROM groups)"));
    if (!query)
        return query.error();
    return query->next() && query->value(0).toLongLong() == 0;
}

FirstRunCheck checkFirstRun(store::Store &store, const RunnerSettings &settings)
{
    FirstRunCheck check;
    check.machine = libvirt::collectMachineStatus(settings);
    check.provider = settings.modelProvider;
    auto secrets = secrets::SecretStore::open(store, actors::firstRun);
    if (!secrets) {
        check.credentialProblem = secrets.error().message;
        return check;
    }
    const auto listed = (*secrets)->list();
    if (!listed) {
        check.credentialProblem = listed.error().message;
        return check;
    }
    for (const secrets::SecretInfo &info : *listed) {
        if (info.key != apiKeySecret && info.key != oauthTokenSecret)
            continue;
        check.credentials << (info.folder.isEmpty()
                                  ? QStringLiteral("%1 (every folder)").arg(info.key)
                                  : QStringLiteral("%1 (folder %2)").arg(info.key, info.folder));
    }
    return check;
}

Result<QString> createDemoFolder(store::Store &store, const QString &actor)
{
    folders::Folders folders(store, actor);
    for (int attempt = 1; attempt < 100; ++attempt) {
        const QString path =
            attempt == 1 ? QStringLiteral("demo") : QStringLiteral("demo-%1").arg(attempt);
        const auto taken = folders.exists(path);
        if (!taken)
            return taken.error();
        if (*taken)
            continue;
        if (auto added = folders.add(path, QStringLiteral("Demo")); !added)
            return added.error();
        if (auto topic = folders::Topics(store, actor).add(path, demoTopic); !topic)
            return topic.error();
        return path;
    }
    return makeError(QStringLiteral("turns.no-demo-folder"),
                     QStringLiteral("demo, demo-2, … demo-99 are all taken; remove one"));
}

} // namespace arizuko::turns
