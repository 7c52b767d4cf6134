#pragma once

// The stored configuration as the window reaches it: folders and topics,
// rules and grants, secrets and connectors, settings, the turns' records
// and the home's history. Every query and change runs on a worker and
// answers on the asker's thread through `done`, which is dropped unheard
// when `context` is gone first (a dialog closed meanwhile); nothing here
// blocks its caller on SQLite. The item models come from make(), and read
// the same way. The signals say what changed in the store, whoever changed
// it, except turns: those only when another process did (this process's
// Engine reports its own as values).
//
// No widget names the store: start-up opens it, hands it to a Workspace and
// an EngineImpl, and the window talks to those two.

#include "core/result.h"
#include "folders/folders.h"
#include "store/run_store_work.h"

#include <QObject>
#include <functional>
#include <utility>

namespace arizuko::store {
class Store;
class StoreWatcher;
}

namespace arizuko::engine {

class Workspace final : public QObject
{
    Q_OBJECT

public:
    // `store` outlives the workspace and the work it started (start-up
    // declares it first; the store's destructor waits for work in flight).
    explicit Workspace(store::Store &store, QObject *parent = nullptr);
    ~Workspace() override;

    // An engine item model (engine/models) on this store, owned by parent.
    template<typename Model>
    Model *make(QObject *parent)
    {
        return new Model(m_store, parent);
    }

    // How often another process's changes are looked for; pollChanges()
    // looks now (tests that should not wait for the timer).
    void setWatchInterval(int milliseconds);
    void pollChanges();

    // --- Folders and topics (the tree, first run, import and export) ---

    // Every folder, in path order.
    void listFolders(QObject *context, std::function<void(Result<QList<folders::Folder>>)> done);

    // --- Policy: network rules, grants, routes, the audit log ---
    // Read and changed through their item models (make<models::NetworkRuleModel>,
    // GrantModel, EffectiveToolModel, RouteModel, AuditLogModel), which do
    // their store work on workers themselves (engine/models/model_work.h).

    // --- Secrets, connectors and settings ---

    // --- Turns: transcript, turn panel, changes and history ---

signals:
    void foldersChanged();
    void topicsChanged();
    void rulesChanged();
    void grantsChanged();
    // Only turns another process changed.
    void turnsChanged();
    void routesChanged();
    void secretsChanged();
    void settingsChanged();

private:
    friend store::Store &storeOf(Workspace &workspace);

    // `work(store)` on a worker holding the store, then `done(result)` on
    // context's thread unless context is gone.
    template<typename Work, typename Done>
    void ask(QObject *context, Work work, Done done)
    {
        store::runStoreWork(context, m_store, std::move(work), std::move(done));
    }

    store::Store &m_store;
    store::StoreWatcher *m_watcher;
};

} // namespace arizuko::engine
