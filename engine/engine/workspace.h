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
#include "export/import_plan.h"
#include "export/projection.h"
#include "folders/folders.h"
#include "folders/network_settings.h"
#include "folders/topics.h"
#include "history/home_history.h"
#include "ledger/ledger_export.h"
#include "secrets/secret_bindings.h"
#include "secrets/secret_store.h"
#include "store/run_store_work.h"
#include "turn_records/turn_records.h"
#include "turns/egress_question_rows.h"
#include "turns/first_run.h"
#include "turns/saved_settings.h"
#include "turns/turn_event_slice.h"

#include <QObject>
#include <functional>
#include <memory>
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

    // The tree's changes, audited as the window's, each refused as
    // folders::Folders and folders::Topics refuse it (a removal or a move
    // while a turn of the subtree is queued or running, say).
    void addFolder(const QString &path, QObject *context,
                   std::function<void(Result<folders::Folder>)> done);
    void addTopic(const QString &folder, const QString &name, QObject *context,
                  std::function<void(Result<folders::Topic>)> done);
    void renameTopic(const QString &folder, const QString &topic, const QString &name,
                     QObject *context, std::function<void(Result<folders::Topic>)> done);
    // With its subtree, re-sealing their secrets (secrets::moveFolder: it
    // may wait on the OS keyring); the moved folders' old paths.
    void moveFolder(const QString &from, const QString &to, QObject *context,
                    std::function<void(Result<QStringList>)> done);
    // With its subtree and their homes, however full; the removed paths.
    void removeFolder(const QString &path, QObject *context,
                      std::function<void(Result<QStringList>)> done);
    void removeTopic(const QString &folder, const QString &topic, QObject *context,
                     std::function<void(Result<void>)> done);

    // A folder's own setting for hosts on no allow entry (unset values
    // inherit), and its change as the window's user (audited).
    void ownNetworkSettings(const QString &folder, QObject *context,
                            std::function<void(Result<folders::NetworkSettings>)> done);
    void setNetworkSettings(const QString &folder, const folders::NetworkSettings &settings,
                            QObject *context, std::function<void(Result<void>)> done);

    // How many days the egress ledger keeps a folder's rows, and its change
    // as the window's user (audited as ledger.retention).
    void ledgerRetention(const QString &folder, QObject *context,
                         std::function<void(Result<int>)> done);
    void setLedgerRetention(const QString &folder, int days, QObject *context,
                            std::function<void(Result<void>)> done);
    // The egress ledger's rows matching filter written to path as
    // arizukoctl network log writes them (ledger::exportLedger), on a
    // worker; `progress` is read and cancelled from the caller's thread.
    // The egress ledger's pages are read by make<models::LedgerModel>.
    void exportLedger(const ledger::LedgerFilter &filter, ledger::LedgerFormat format,
                      const QString &path, std::shared_ptr<ledger::ExportProgress> progress,
                      QObject *context, std::function<void(Result<qint64>)> done);

    // The first-run guide's checks (libvirt, the model's credentials: slow)
    // and its demo folder (demo, demo-2, ... with the topic turns::demoTopic).
    void checkFirstRun(const turns::RunnerSettings &settings, QObject *context,
                       std::function<void(turns::FirstRunCheck)> done);
    void createDemoFolder(QObject *context, std::function<void(Result<QString>)> done);

    // An arizuko manifest's import: the plan alone, or the plan applied in
    // one transaction (manifest::planImport, manifest::applyImport).
    void planImport(const QByteArray &manifest, QObject *context,
                    std::function<void(Result<manifest::ImportPlan>)> done);
    void applyImport(const QByteArray &manifest, QObject *context,
                     std::function<void(Result<manifest::ImportPlan>)> done);

    // An export's projection and its text as `write` writes it
    // (manifest::manifestText or manifest::scriptText), both on the worker.
    struct ExportPreview
    {
        manifest::Projection projection;
        QByteArray text;
    };
    using ExportWriter = QByteArray (*)(const manifest::Projection &);
    void previewExport(const manifest::ExportOptions &options, ExportWriter write, QObject *context,
                       std::function<void(Result<ExportPreview>)> done);

    // --- Policy: network rules, grants, routes, the audit log ---
    // Read and changed through their item models (make<models::NetworkRuleModel>,
    // GrantModel, EffectiveToolModel, RouteModel, AuditLogModel), which do
    // their store work on workers themselves (engine/models/model_work.h).

    // --- Secrets, connectors and settings ---

    // What the secrets editor shows after each call: where the master key
    // is and every secret's name and scope, never a value; and what the
    // change asked for came to (ok when none was asked for).
    struct SecretNames
    {
        QString keyStore; // empty when the key store cannot be opened
        Result<QList<secrets::SecretInfo>> secrets = QList<secrets::SecretInfo>{};
        // Each bound secret's hosts and placement (secret_bindings.h).
        Result<QList<secrets::SecretBinding>> bindings = QList<secrets::SecretBinding>{};
        Result<void> change;
    };
    // Each opens the key store once (an OS keyring may take seconds to
    // answer), as the window's user, and lists the names after its change.
    void listSecrets(QObject *context, std::function<void(SecretNames)> done);
    void setSecret(const QString &folder, const QString &name, const QByteArray &value,
                   QObject *context, std::function<void(SecretNames)> done);
    void removeSecret(const QString &folder, const QString &name, QObject *context,
                      std::function<void(SecretNames)> done);
    // Binds (or binds anew) the secret `name` of `folder`, or unbinds it.
    void bindSecret(const QString &folder, const QString &name, const QStringList &hosts,
                    const secrets::SecretPlacement &placement, QObject *context,
                    std::function<void(SecretNames)> done);
    void unbindSecret(const QString &folder, const QString &name, QObject *context,
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

    // The turns of a topic, oldest first.
    void topicTurns(const QString &folder, const QString &topic, QObject *context,
                    std::function<void(Result<QList<turns::TurnRecord>>)> done);
    // A topic's latest turn and how many of its turns run and wait.
    void topicActivity(const QString &folder, const QString &topic, QObject *context,
                       std::function<void(Result<turns::TopicActivity>)> done);
    // The page of a topic's events before `cursor` (turns::topicPageBefore;
    // `turnIds` the topic's turns, oldest first).
    void topicPageBefore(const QStringList &turnIds, turns::TopicCursor cursor,
                         turns::PageSize size, QObject *context,
                         std::function<void(turns::TopicPage)> done);
    // Every stored event of each turn, in the turns' order (a turn whose
    // events cannot be read: none).
    void turnsEvents(const QStringList &turnIds, QObject *context,
                     std::function<void(QList<QList<turns::TurnEventRecord>>)> done);
    // The last `limit` network events (the proxy's log lines) of `turn`
    // below `beforeSeq`, oldest first.
    void networkEventsBefore(const QString &turn, qint64 beforeSeq, int limit, QObject *context,
                             std::function<void(Result<QList<turns::TurnEventRecord>>)> done);
    // Allows `host` for `folder` from its next turn, as the window's user
    // (the turn panel's "Allow for this folder…"); the rule's target.
    void allowHost(const QString &folder, const QString &host, QObject *context,
                   std::function<void(Result<QString>)> done);
    // The open questions of every engine's turns about hosts on no allow
    // entry (turns::openQuestions), oldest first.
    void openQuestions(QObject *context,
                       std::function<void(Result<QList<turns::EgressQuestion>>)> done);
    // Answers one as the window's user (turns::answerQuestion); the engine
    // that asked forwards it to the waiting request.
    void answerQuestion(qint64 id, turns::QuestionAnswer answer, QObject *context,
                        std::function<void(Result<void>)> done);
    // Where the turn's guest console is logged (a file, read as it grows).
    QString consoleLogPath(const QString &turn) const;

    // A turn's changes in its folder's home, with their diffs, as the saved
    // settings have the history record them.
    void turnChanges(const turns::TurnRecord &turn, QObject *context,
                     std::function<void(Result<history::TurnChanges>)> done);
    // What the history of `folder`'s home takes on disk and keeps
    // (history::historyUseText).
    void historyUse(const QString &folder, QObject *context,
                    std::function<void(Result<QString>)> done);
    // Plans (UndoMode::Plan) or applies the undo of `turn` in its home, as
    // the window's user (audited).
    void undoTurn(const turns::TurnRecord &turn, history::UndoMode mode, QObject *context,
                  std::function<void(Result<history::UndoReport>)> done);

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
    // An egress question was asked, answered or closed (by any process).
    void questionsChanged();

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
    // The watcher's thread, so its polls never wait on a busy store on the
    // caller's; the anchor lives there and holds the watcher.
    QThread *m_watchThread;
    QObject *m_watchAnchor;
};

} // namespace arizuko::engine
