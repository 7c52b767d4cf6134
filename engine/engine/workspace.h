#pragma once

// The stored configuration as the window reaches it: folders and topics,
// rules and grants, secrets and connectors, settings, the turns' records
// and the home's history. Every query and change runs on a worker and
// answers on the asker's thread through `done`, which is dropped unheard
// when `context` is gone first (a dialog closed meanwhile); nothing here
// blocks its caller on SQLite. The item models come from make(), and read
// the same way. The signals say what changed in the store, whoever changed
// it, except turns: those only when another process did (this process's
// Engine reports its own as values); the store is watched from a thread of
// its own.
//
// No widget names the store: start-up opens it, hands it to a Workspace and
// an EngineImpl, and the window talks to those two.

#include "core/result.h"
#include "core/run_on_worker.h"
#include "folders/folders.h"
#include "secrets/secret_store.h"
#include "store/store_work.h"
#include "turns/saved_settings.h"

#include <QObject>
#include <functional>
#include <utility>

class QThread;

namespace arizuko::store {
class Store;
}

namespace arizuko::models {
struct ConnectorOverview;
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

    // How often the store is looked at for changes (tests look more often).
    void setWatchInterval(int milliseconds);

    // --- Folders and topics (the tree, first run, import and export) ---

    // Every folder, in path order.
    void listFolders(QObject *context, std::function<void(Result<QList<folders::Folder>>)> done);

    // --- Policy: network rules, grants, routes, the audit log ---

    // --- Secrets, connectors and settings ---

    // What the secrets editor shows after each call: where the master key
    // is and every secret's name and scope, never a value; and what the
    // change asked for came to (ok when none was asked for).
    struct SecretNames
    {
        QString keyStore; // empty when the key store cannot be opened
        Result<QList<secrets::SecretInfo>> secrets = QList<secrets::SecretInfo>{};
        Result<void> change;
    };
    // Each opens the key store once (an OS keyring may take seconds to
    // answer), as the window's user, and lists the names after its change.
    void listSecrets(QObject *context, std::function<void(SecretNames)> done);
    void setSecret(const QString &folder, const QString &name, const QByteArray &value,
                   QObject *context, std::function<void(SecretNames)> done);
    void removeSecret(const QString &folder, const QString &name, QObject *context,
                      std::function<void(SecretNames)> done);

    // Every connector the host knows, and for `folder` (or none) which
    // operations its agent sees and where each secret it reads is set.
    void gatherConnectors(const QString &folder, QObject *context,
                          std::function<void(models::ConnectorOverview)> done);

    // The saved settings only (turns::effectiveSettings layers the rest).
    void loadSettings(QObject *context, std::function<void(Result<turns::SettingValues>)> done);
    // turns::SavedSettings::save as the window's user: all or nothing.
    void saveSettings(const turns::SettingValues &changes, QObject *context,
                      std::function<void(Result<void>)> done);
    // Where the store, the settings and the secrets live (a path; no query).
    QString dataDir() const;

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
        runOnWorker(
            context,
            [hold = store::StoreWork(m_store), work = std::move(work)]() mutable {
                return work(hold.store());
            },
            std::move(done));
    }

    store::Store &m_store;
    // The watcher's thread, so its polls never wait on a busy store on the
    // caller's; the anchor lives there and holds the watcher.
    QThread *m_watchThread;
    QObject *m_watchAnchor;
};

} // namespace arizuko::engine
