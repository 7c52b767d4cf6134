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
#include "core/run_on_worker.h"
#include "folders/folders.h"
#include "history/home_history.h"
#include "store/store_work.h"
#include "turn_records/turn_records.h"
#include "turns/turn_event_slice.h"

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

    // --- Secrets, connectors and settings ---

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
    store::StoreWatcher *m_watcher;
};

} // namespace arizuko::engine
