#pragma once

// The one assembly of the engine: the TurnRunner, the history recorder that
// snapshots every turn's home, and the connector broker of the Try button,
// wired once, on a thread of their own. The window and `arizukoctl run`
// both make one and talk to it through Engine.
//
// Why a thread of its own in both: the window's GUI thread must never wait
// for the runner's store commits (synchronous = FULL), the proxy's shutdown
// or its libvirt bookkeeping; and arizukoctl, whose main thread has nothing
// else to do, gains nothing from a second way of running the same parts —
// with one, its tests exercise the very path the window takes. Every call
// reaches the runner queued; every report comes back queued and as values,
// because a Turn lives and dies on the engine thread.

#include "engine/engine.h"
#include "turns/runner_settings.h"

#include <memory>

class QThread;

namespace arizuko::store {
class Store;
}
namespace arizuko::turns {
class TurnRunner;
}
namespace arizuko::history {
class TurnHistoryRecorder;
}
namespace arizuko::connectors {
class ConnectorBroker;
}

namespace arizuko::engine {

class Workspace;

class EngineImpl final : public Engine
{
    Q_OBJECT

public:
    // Starts the thread and, on it, a runner that is not started yet.
    EngineImpl(store::Store &store, const turns::RunnerSettings &settings,
               QObject *parent = nullptr);
    // The same on the workspace's store (the window's start-up).
    EngineImpl(Workspace &workspace, const turns::RunnerSettings &settings,
               QObject *parent = nullptr);
    // Destroys the runner on its thread (its turns tear down), then the
    // history recorder (which waits for their last snapshots), then stops
    // the thread. Reports still queued for this object are dropped with it.
    ~EngineImpl() override;

    void start() override;
    void submit(const turns::TurnRequest &request) override;
    void cancel(const QString &turnId) override;
    void cancelAll(const QString &why) override;
    void suggestSpare(const QString &folder) override;
    void prepareSpare(const QString &folder) override;
    void discardSpare(const QString &why) override;
    void setKeepsSpares(bool keeps) override;
    void askSpareName() override;
    void tryConnector(const QString &folder, const QString &tool,
                      const QJsonObject &arguments) override;

    bool isReady() const override { return m_ready; }
    host::AcceleratorChoice accelerator() const override { return m_accelerator; }
    QList<turns::TurnRecord> liveTurns() const override { return m_live; }

private:
    // Runs `call` with the runner, on the engine thread, after every call
    // queued before it.
    template<typename Call>
    void onEngine(Call call);
    // From the engine thread: runs `report` on this object's thread.
    template<typename Report>
    void toCaller(Report report);
    // On the engine thread: makes the parts and wires them.
    void assemble(const turns::RunnerSettings &settings);
    // On the engine thread: relays the runner's signals to this object's
    // thread as values.
    void relay();
    void updateLive(const turns::TurnRecord &turn);

    store::Store &m_store;
    QThread *m_thread;
    // Lives on the engine thread: the receiver of every queued call.
    std::unique_ptr<QObject> m_anchor;
    // Created, used and destroyed on the engine thread only; the history
    // recorder outlives the runner, so the last turns' snapshots are kept.
    std::unique_ptr<history::TurnHistoryRecorder> m_history;
    std::unique_ptr<turns::TurnRunner> m_runner;
    // The Try button's calls, made on the engine thread like a turn's.
    std::unique_ptr<connectors::ConnectorBroker> m_tries;
    // The mirror on this object's thread, kept by the reports themselves.
    bool m_ready = false;
    host::AcceleratorChoice m_accelerator;
    QList<turns::TurnRecord> m_live;
};

} // namespace arizuko::engine
