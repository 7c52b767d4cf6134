#include "turns/first_run.h"

#include "folders/folders.h"
#include "folders/topics.h"
#include "secrets/secret_store.h"
#include "store/query.h"
#include "store/store.h"
#include "libvirt/machine_status.h"
#include "turns/model_provider.h"

using namespace Qt::StringLiterals;

namespace arizuko::turns {

Result<bool> isFirstRun(store::Store &store)
{
    auto query = store::execute(store.database(),
                                u"SELECT (SELECT count(*) FROM settings) + "
                                u"(SELECT count(*) FROM groups)"_s);
    if (!query)
        return query.error();
    return query->next() && query->value(0).toLongLong() == 0;
}

FirstRunCheck checkFirstRun(store::Store &store, const RunnerSettings &settings)
{
    FirstRunCheck check;
    check.machine = libvirt::collectMachineStatus(settings);
    check.provider = settings.modelProvider;
    auto secrets = secrets::SecretStore::open(store, u"system:first-run"_s);
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
                                  ? u"%1 (every folder)"_s.arg(info.key)
                                  : u"%1 (folder %2)"_s.arg(info.key, info.folder));
    }
    return check;
}

Result<QString> createDemoFolder(store::Store &store, const QString &actor)
{
    folders::Folders folders(store, actor);
    for (int attempt = 1; attempt < 100; ++attempt) {
        const QString path = attempt == 1 ? u"demo"_s : u"demo-%1"_s.arg(attempt);
        const auto taken = folders.exists(path);
        if (!taken)
            return taken.error();
        if (*taken)
            continue;
        if (auto added = folders.add(path, u"Demo"_s); !added)
            return added.error();
        if (auto topic = folders::Topics(store, actor).add(path, demoTopic); !topic)
            return topic.error();
        return path;
    }
    return makeError(u"turns.no-demo-folder"_s,
                     u"demo, demo-2, … demo-99 are all taken; remove one"_s);
}

} // namespace arizuko::turns
