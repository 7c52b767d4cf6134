#pragma once

// The turns and their events in the store: every state change, with its
// time, and every event as it arrives, so a crash loses nothing reported.

#include "core/result.h"
#include "turn_records/turn_record.h"

#include <QList>
#include <QString>
#include <QVariant>
#include <functional>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

// What a topic's view shows of its turns.
struct TopicActivity
{
    int queued = 0;
    bool running = false; // a turn of the topic is active (preparing … finishing)
    TurnRecord latest;    // the newest turn; empty when the topic has none
};

class TurnRecords
{
public:
    explicit TurnRecords(store::Store &store);

    Result<void> insert(const TurnRecord &record);
    // Sets the state and the time it was entered (and ends a turn).
    Result<void> setState(const QString &id, TurnState state, const QString &at);
    // What a turn learns on its way, each written as it is known.
    Result<void> setNetwork(const QString &id, const QString &subnet, const QString &networkName);
    Result<void> setProxyPid(const QString &id, qint64 pid);
    Result<void> setProxyAddress(const QString &id, const QString &address);
    Result<void> setMachine(const QString &id, const QString &vmName, const QString &accelerator);
    Result<void> setExitCode(const QString &id, int code);
    Result<void> setError(const QString &id, const QString &code, const QString &message);
    Result<void> setUsage(const QString &id, const QJsonObject &usage,
                          std::optional<double> costUsd);
    Result<void> appendEvent(const TurnEventRecord &event);
    // In one transaction: a turn's events arrive in bursts. `alongside`
    // writes what the events make elsewhere (the egress ledger) in the same
    // transaction.
    Result<void> appendEvents(const QList<TurnEventRecord> &events,
                              const std::function<Result<void>()> &alongside = {});
    Result<void> requestCancel(const QString &id, const QString &at);

    // Newest first.
    Result<QList<TurnRecord>> list(int limit = 100);
    // By full id, unique id prefix, or name (az-<turn8>).
    Result<TurnRecord> find(const QString &reference);
    // find(), refused with turns.ended when the turn has already ended: what
    // a cancel, local or from another process, starts from.
    Result<TurnRecord> findLive(const QString &reference);
    // The turns of one topic, oldest first.
    Result<QList<TurnRecord>> ofTopic(const QString &folder, const QString &topic);
    // The agent (its kind's name) of the folder's latest turn; empty
    // when the folder has had none.
    Result<QString> lastAgent(const QString &folder);
    // In one query, without loading the topic's turns.
    Result<TopicActivity> topicActivity(const QString &folder, const QString &topic);
    // Every turn not in an end state.
    Result<QList<TurnRecord>> live();
    // The engines ("pid", "starttime") running an active turn of the topic
    // other than `except`.
    Result<QList<std::pair<qint64, QString>>>
    activeEnginesInTopic(const QString &folder, const QString &topic, const QString &except);
    // The live turns of the engine `enginePid` whose cancel another process
    // requested (arizukoctl cancel).
    Result<QStringList> cancelRequested(qint64 enginePid);
    Result<QList<TurnEventRecord>> events(const QString &id);
    // Whether a turn of the agent `agent` (its kind's name) in the
    // topic, other than `except`, ran its agent, so the topic should have
    // that agent's session by now.
    Result<bool> hasSessionTurns(const QString &folder, const QString &topic, const QString &except,
                                 const QString &agent);

private:
    // The setters' one way to the table: column names from this file only,
    // never from a caller.
    Result<void> update(const QString &id, const QList<std::pair<QString, QVariant>> &columns);
    Result<void> audited(const QString &id, TurnState state,
                         const std::function<Result<void>()> &change);
    Result<void> insertRow(const TurnRecord &record);

    Result<QList<TurnRecord>> select(const QString &where, const QVariantList &bindings);

    store::Store &m_store;
};

} // namespace arizuko::turns
