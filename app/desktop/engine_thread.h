#pragma once

// The window's engine: a TurnRunner on a thread of its own, so its store
// commits (synchronous = FULL), the proxy's shutdown and the runner's
// libvirt bookkeeping never hold up the GUI thread. Every call reaches the
// runner queued; every report comes back queued and as values, because a
// Turn lives and dies on the engine thread.

#include "core/result.h"
#include "host/host_status.h"
#include "turn_records/turn_record.h"
#include "turns/runner_settings.h"
#include "turns/turn_request.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
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

namespace arizuko::desktop {

class EngineThread final : public QObject
{
    Q_OBJECT

public:
    // Starts the thread and, on it, a runner that is not started yet.
    EngineThread(store::Store &store, const turns::RunnerSettings &settings,
                 QObject *parent = nullptr);
    // Destroys the runner on its thread (its turns tear down), then stops the thread.
    ~EngineThread() override;

    // The runner's start(): libvirt, the nwfilter, the reaper and the KVM
    // decision, ending in ready() or failed().
    void start();
    void submit(const turns::TurnRequest &request);
    void cancel(const QString &turnId);
    // Warm start: boots the next turn's guest for `folder` ahead of its
    // prompt once the user stays on it, when the setting is on (the runner
    // decides; see TurnRunner::suggestSpare).
    void suggestSpare(const QString &folder);
    // Warm start's other controls, for the runner driven without the window
    // (tests/turns/spare/spare_driver.cpp, the turn benchmark): a spare now,
    // with no wait for the user to stay.
    void prepareSpare(const QString &folder);
    void discardSpare(const QString &why);
    void setKeepsSpares(bool keeps);
    // Answers with spareNamed() after every call queued before it.
    void askSpareName();
    // The Connectors editor's "Try": one read (GET) operation of the
    // definitions on disk now, made by the host with `folder`'s secret, as
    // the person's call (no grant asked; audited as connector.call with the
    // turn "gui"). Answers with connectorTried().
    void tryConnector(const QString &folder, const QString &tool, const QJsonObject &arguments);

    bool isReady() const { return m_ready; }
    const host::AcceleratorChoice &accelerator() const { return m_accelerator; }
    // This process's turns that have not ended, as last reported, in
    // submission order.
    QList<turns::TurnRecord> liveTurns() const { return m_live; }

signals:
    void ready(const arizuko::host::AcceleratorChoice &accelerator);
    void failed(const arizuko::Error &error);
    // A submit or cancel the runner refused.
    void requestFailed(const QString &message);
    void turnQueued(const arizuko::turns::TurnRecord &turn);
    void turnPhaseChanged(const arizuko::turns::TurnRecord &turn);
    // One batch per event-loop pass of the turn, already stored.
    void turnEvents(const QString &turnId, const QList<arizuko::turns::TurnEventRecord> &events);
    void turnNetworkDecision(const arizuko::turns::TurnRecord &turn, const QJsonObject &decision);
    // The turn as stored once it ended.
    void turnFinished(const arizuko::turns::TurnRecord &turn);
    // The home's history holds the turn's snapshot after: its changes can be read.
    void turnChangesRecorded(const QString &turnId);
    // The spare's guest is booted behind its verified filter; or it is gone
    // unused, and why.
    void spareReady(const QString &name, const QString &folder);
    void spareDiscarded(const QString &name, const QString &why);
    // The runner's spare when askSpareName() reached it; empty: none.
    void spareNamed(const QString &name);
    // What the agent would have read (method, path, HTTP status, the
    // scrubbed body), or why the call was not made.
    void connectorTried(const QString &folder, const QString &tool, const QString &text,
                        bool isError);

private:
    // Runs `call` with the runner, on the engine thread, after every call
    // queued before it.
    template<typename Call>
    void onEngine(Call call);
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
    bool m_ready = false;
    host::AcceleratorChoice m_accelerator;
    QList<turns::TurnRecord> m_live;
};

} // namespace arizuko::desktop
