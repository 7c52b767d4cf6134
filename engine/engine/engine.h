#pragma once

// The engine as a front-end sees it: what the window and `arizukoctl run`
// ask of this process's turns, and what they hear back. Calls return at
// once and are answered by signals; every signal carries values (records,
// event batches, decisions), never a Turn, which lives and dies inside the
// engine. EngineImpl (engine_impl.h) is the one implementation.

#include "core/result.h"
#include "host/host_status.h"
#include "turn_records/turn_record.h"
#include "turns/reap_report.h"
#include "turns/turn_request.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

namespace arizuko::engine {

class Engine : public QObject
{
    Q_OBJECT

public:
    // Connects to libvirt, defines the nwfilter, reaps what dead engines
    // left and decides KVM or TCG, off the caller's thread; ends in ready()
    // or failed(). Calling it again after a failure retries.
    virtual void start() = 0;
    // Queues a turn (it starts once the engine is ready, a slot and its
    // topic are free): turnQueued(), or requestFailed() with the reason.
    virtual void submit(const turns::TurnRequest &request) = 0;
    // Cancels a turn of this engine, or asks the engine that runs it
    // (through the store) to; requestFailed() when there is no such turn.
    virtual void cancel(const QString &turnId) = 0;
    // Cancels every turn of this engine, queued or running, saying why
    // (arizukoctl's Ctrl-C).
    virtual void cancelAll(const QString &why) = 0;

    // Warm start (docs/turns.md): boots the next turn's guest for `folder`
    // ahead of its prompt once the user stays on it, when the setting is on
    // and the engine keeps spares.
    virtual void suggestSpare(const QString &folder) = 0;
    // The same at once, with no wait for the user to stay (the warm-start
    // tests and the turn benchmark).
    virtual void prepareSpare(const QString &folder) = 0;
    virtual void discardSpare(const QString &why) = 0;
    // Whether the engine keeps a spare at all: one that outlives its turns
    // (the window's) does; a one-shot one (arizukoctl run) does not, the
    // default.
    virtual void setKeepsSpares(bool keeps) = 0;
    // Answers with spareNamed() after every call made before it.
    virtual void askSpareName() = 0;

    // The Connectors editor's "Try": one read (GET) operation of the
    // definitions on disk now, made by the host with `folder`'s secret, as
    // the person's call (no grant asked; audited as connector.call with the
    // turn "gui"). Answers with connectorTried().
    virtual void tryConnector(const QString &folder, const QString &tool,
                              const QJsonObject &arguments) = 0;

    // As last reported, on the caller's thread.
    virtual bool isReady() const = 0;
    virtual host::AcceleratorChoice accelerator() const = 0;
    // This engine's turns that have not ended, in submission order.
    virtual QList<turns::TurnRecord> liveTurns() const = 0;

signals:
    // The engine runs turns now; `reaped`: what earlier engines had left.
    void ready(const arizuko::host::AcceleratorChoice &accelerator,
               const arizuko::turns::ReapReport &reaped);
    void failed(const arizuko::Error &error);
    // A submit or cancel the engine refused.
    void requestFailed(const QString &message);
    void turnQueued(const arizuko::turns::TurnRecord &turn);
    void turnPhaseChanged(const arizuko::turns::TurnRecord &turn);
    // One batch per event-loop pass of the turn, already stored.
    void turnEvents(const QString &turnId, const QList<arizuko::turns::TurnEventRecord> &events);
    void turnNetworkDecision(const arizuko::turns::TurnRecord &turn, const QJsonObject &decision);
    // The turn as stored once it ended (for the user: its VM may still be
    // being destroyed).
    void turnFinished(const arizuko::turns::TurnRecord &turn);
    // The home's history holds the turn's snapshot after: its changes can be read.
    void turnChangesRecorded(const QString &turnId);
    // A snapshot of the turn ran out of its budget: `note` says which and
    // what it left unread.
    void historyBudgetRanOut(const QString &turnId, bool after, const QString &note);
    // The spare's guest is booted behind its verified filter; or it is gone
    // unused, and why.
    void spareReady(const QString &name, const QString &folder);
    void spareDiscarded(const QString &name, const QString &why);
    // The spare when askSpareName() reached the engine; empty: none.
    void spareNamed(const QString &name);
    // What the agent would have read (method, path, HTTP status, the
    // scrubbed body), or why the call was not made.
    void connectorTried(const QString &folder, const QString &tool, const QString &text,
                        bool isError);

protected:
    using QObject::QObject;
};

} // namespace arizuko::engine
