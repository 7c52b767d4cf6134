#pragma once

// Everything a turn writes to the store: its row (state and the time each
// was entered, what it learns on its way, how it ended), its events, and
// what it tells topics (the session its agent moved to, an escalated
// turn's answer). Each setter keeps row() what the store holds, so what
// the turn knew is read from it, never read back from the store.
// Events are numbered in order, kept for one event-loop pass, then stored
// in one transaction and handed on as one batch (a turn's events arrive in
// bursts; a commit each would cost milliseconds apiece). A write the store
// refuses is reported with the reason, never dropped.

#include "core/result.h"
#include "ledger/ledger.h"
#include "ledger/ledger_recorder.h"
#include "turn_records/turn_record.h"
#include "turn_records/turn_records.h"
#include "turns/guest_channel_messages.h"
#include "turns/guest_machine.h"
#include "turns/turn_request.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <optional>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

class TurnJournal final : public QObject
{
    Q_OBJECT

public:
    TurnJournal(store::Store &store, TurnRecords &records, TurnRecord row,
                QObject *parent = nullptr);

    const TurnRecord &row() const { return m_row; }
    // The policy the turn's proxy is started with: the egress ledger's rows
    // name the rule of it that decided.
    void setNetworkPolicy(const policy::NetworkPolicy &policy);

    // The state and the time it was entered, and its `phase` event.
    void enter(TurnState state);
    void setError(const Error &error);
    void setExitCode(int code);
    void setUsage(const QJsonObject &usage, std::optional<double> costUsd);
    // What the turn learns of its machine as it is made.
    void setNetwork(const QString &subnet, const QString &networkName);
    void setProxyPid(qint64 pid);
    void setProxyAddress(const QString &address);
    void setMachine(const QString &vmName, const QString &accelerator);
    // The topic follows the session id its agent reported.
    void followSession(const QString &sessionId);
    // An escalated turn's answer, posted to the asking topic (`reply`).
    void postReply(const TurnRequest &request, TurnState outcome, const QString &answer);

    void record(const QString &kind, const QJsonObject &json);
    // How long one step took (`ms` a number, or an object of parts), for
    // `turns --events` and the benchmark.
    void recordTiming(const QString &step, const QJsonValue &ms);
    // What destroying the machine could not do, and how long it took.
    void recordTeardown(const GuestTeardown &teardown);
    // Warm start: the spare the turn took over (`spare`, adopted), or why
    // it did not; and whether the spare's started agent answers (`prestart`).
    void recordSpareAdopted(const GuestMachine &spare, qint64 ageMs);
    void recordSpareSkipped(const QString &spare, const QString &why);
    void recordPrestart(bool used, const QString &reason);
    // What the plan tells the transcript: the observed folders' messages
    // put before the prompt, and why the session starts afresh.
    void recordPlanNotes(const QString &observedContext, const QString &sessionId,
                         const QString &sessionNote);
    // The agent's output, within the turn's budget for it.
    void recordGuestOutput(const QString &kind, const QJsonObject &json, qsizetype chars);
    // A line of the guest its protocol does not allow: recorded once, the
    // total at the turn's end.
    void recordGuestViolation(const QString &why);
    void recordGuestViolationTotal();
    // Stores what is pending now and hands it on (also when storing failed:
    // the window and arizukoctl still see it).
    void flush();

signals:
    void batch(const QList<arizuko::turns::TurnEventRecord> &events);
    // The store refused a write of the turn (turns.store, naming what).
    void storeFailed(const arizuko::Error &error);

private:
    // A write of the row: a refusal is reported (storeFailed).
    void write(const Result<void> &written, const QString &what);

    store::Store &m_store;
    TurnRecords &m_records;
    TurnRecord m_row;
    QList<TurnEventRecord> m_pending;
    ledger::Ledger m_ledger;
    ledger::LedgerRecorder m_ledgerRecorder;
    QList<ledger::LedgerWrite> m_pendingLedger;
    qint64 m_nextSeq = 1;
    GuestOutputBudget m_guestOutput;
    qint64 m_guestViolations = 0;
};

} // namespace arizuko::turns
