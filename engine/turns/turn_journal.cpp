#include "turns/turn_journal.h"

#include "core/actors.h"
#include "core/soft_assert.h"
#include "folders/topics.h"
#include "store/timestamp.h"
#include "turns/turn_services.h"

namespace arizuko::turns {

TurnJournal::TurnJournal(store::Store &store, TurnRecords &records, TurnRecord row, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_records(records)
    , m_row(std::move(row))
    , m_ledger(store)
    , m_ledgerRecorder(m_row.id, m_row.folder, m_row.topic)
{}

void TurnJournal::setNetworkPolicy(const policy::NetworkPolicy &policy)
{
    m_ledgerRecorder.setPolicy(policy);
}

void TurnJournal::enter(TurnState state)
{
    const QString at = store::nowTimestamp();
    m_row.state = state;
    switch (state) {
    case TurnState::Queued:
        m_row.queuedAt = at;
        break;
    case TurnState::Preparing:
        m_row.preparingAt = at;
        break;
    case TurnState::Booting:
        m_row.bootingAt = at;
        break;
    case TurnState::Running:
        m_row.runningAt = at;
        break;
    case TurnState::Finishing:
        m_row.finishingAt = at;
        break;
    default:
        m_row.endedAt = at;
        break;
    }
    write(m_records.setState(m_row.id, state, at), QStringLiteral("state"));
    record(QStringLiteral("phase"), {{QStringLiteral("state"), turnStateName(state)}});
}

void TurnJournal::setError(const Error &error)
{
    m_row.errorCode = error.code;
    m_row.error = error.message;
    write(m_records.setError(m_row.id, error.code, error.message), QStringLiteral("error"));
    record(QStringLiteral("error"),
           {{QStringLiteral("code"), error.code}, {QStringLiteral("message"), error.message}});
}

void TurnJournal::setExitCode(int code)
{
    m_row.exitCode = code;
    write(m_records.setExitCode(m_row.id, code), QStringLiteral("exit code"));
}

void TurnJournal::setUsage(const QJsonObject &usage, std::optional<double> costUsd)
{
    m_row.usage = usage;
    m_row.costUsd = costUsd;
    write(m_records.setUsage(m_row.id, usage, costUsd), QStringLiteral("usage"));
    record(QStringLiteral("usage"), usage);
}

void TurnJournal::setNetwork(const QString &subnet, const QString &networkName)
{
    m_row.subnet = subnet;
    m_row.networkName = networkName;
    write(m_records.setNetwork(m_row.id, subnet, networkName), QStringLiteral("network"));
}

void TurnJournal::setProxyPid(qint64 pid)
{
    m_row.proxyPid = pid;
    write(m_records.setProxyPid(m_row.id, pid), QStringLiteral("proxy"));
}

void TurnJournal::setProxyAddress(const QString &address)
{
    m_row.proxyAddress = address;
    write(m_records.setProxyAddress(m_row.id, address), QStringLiteral("proxy address"));
}

void TurnJournal::setMachine(const QString &vmName, const QString &accelerator)
{
    m_row.vmName = vmName;
    m_row.accelerator = accelerator;
    write(m_records.setMachine(m_row.id, vmName, accelerator), QStringLiteral("VM"));
}

void TurnJournal::followSession(const QString &sessionId)
{
    AZ_ASSERT_OK(folders::Topics(m_store, actors::turns)
                     .setSessionId(m_row.folder, m_row.topic, sessionId,
                                   QStringLiteral("the agent reported a new session id")),
                 "storing the topic's new session id");
}

void TurnJournal::postReply(const TurnRequest &request, TurnState outcome, const QString &answer)
{
    record(QStringLiteral("reply"),
           postTurnReply(m_store, request, m_row.name, turnStateName(outcome), answer));
}

void TurnJournal::write(const Result<void> &written, const QString &what)
{
    if (!written)
        emit storeFailed(makeError(QStringLiteral("turns.store"),
                                   QStringLiteral("the store did not keep the turn's %1 (%2); the "
                                                  "turn stops rather than run unrecorded")
                                       .arg(what, written.error().message)));
}

void TurnJournal::record(const QString &kind, const QJsonObject &json)
{
    m_pending.append({m_row.id, m_nextSeq++, kind, json, store::nowTimestamp()});
    const TurnEventRecord &event = m_pending.constLast();
    if (auto write = m_ledgerRecorder.take(kind, json, event.seq, event.at))
        m_pendingLedger.append(std::move(*write));
    if (m_pending.size() == 1)
        QMetaObject::invokeMethod(this, &TurnJournal::flush, Qt::QueuedConnection);
}

void TurnJournal::recordTiming(const QString &step, const QJsonValue &ms)
{
    record(QStringLiteral("timing"), {{QStringLiteral("step"), step}, {QStringLiteral("ms"), ms}});
}

void TurnJournal::recordTeardown(const GuestTeardown &teardown)
{
    for (const QString &error : teardown.errors)
        record(QStringLiteral("teardown"), {{QStringLiteral("error"), error}});
    if (!teardown.parts.isEmpty())
        recordTiming(QStringLiteral("teardown-parts"), teardown.parts);
    recordTiming(QStringLiteral("teardown"), teardown.ms);
}

void TurnJournal::recordSpareAdopted(const GuestMachine &spare, qint64 ageMs)
{
    record(QStringLiteral("spare"), {{QStringLiteral("adopted"), true},
                                     {QStringLiteral("spare"), spare.name()},
                                     {QStringLiteral("age_ms"), ageMs},
                                     {QStringLiteral("made"), spare.timings()}});
}

void TurnJournal::recordSpareSkipped(const QString &spare, const QString &why)
{
    record(QStringLiteral("spare"), {{QStringLiteral("adopted"), false},
                                     {QStringLiteral("spare"), spare},
                                     {QStringLiteral("reason"), why}});
}

void TurnJournal::recordPrestart(bool used, const QString &reason)
{
    QJsonObject json{{QStringLiteral("used"), used}};
    if (!reason.isEmpty())
        json.insert(QStringLiteral("reason"), reason);
    record(QStringLiteral("prestart"), json);
}

void TurnJournal::recordPlanNotes(const QString &observedContext, const QString &sessionId,
                                  const QString &sessionNote)
{
    if (!observedContext.isEmpty())
        record(QStringLiteral("observed"), {{QStringLiteral("context"), observedContext}});
    if (!sessionNote.isEmpty())
        record(QStringLiteral("session"), {{QStringLiteral("fresh"), true},
                                           {QStringLiteral("session_id"), sessionId},
                                           {QStringLiteral("reason"), sessionNote}});
}

void TurnJournal::recordGuestOutput(const QString &kind, const QJsonObject &json, qsizetype chars)
{
    switch (m_guestOutput.take(chars)) {
    case GuestOutputBudget::Outcome::Store:
        record(kind, json);
        return;
    case GuestOutputBudget::Outcome::LimitReached:
        record(QStringLiteral("guest-limit"),
               {{QStringLiteral("rows"), m_guestOutput.rows()},
                {QStringLiteral("chars"), m_guestOutput.chars()},
                {QStringLiteral("message"),
                 QStringLiteral("the agent's output reached the turn's limit of %1 rows or %2 "
                                "characters; the rest is not stored")
                     .arg(maxGuestOutputRows)
                     .arg(maxGuestOutputChars)}});
        return;
    case GuestOutputBudget::Outcome::Drop:
        return;
    }
}

void TurnJournal::recordGuestViolation(const QString &why)
{
    if (m_guestViolations++ == 0)
        record(
            QStringLiteral("guest-protocol"),
            {{QStringLiteral("violation"), why},
             {QStringLiteral("message"),
              QStringLiteral("the guest sent what its protocol does not allow; it was dropped")}});
}

void TurnJournal::recordGuestViolationTotal()
{
    if (m_guestViolations > 1)
        record(
            QStringLiteral("guest-protocol"),
            {{QStringLiteral("violations"), m_guestViolations},
             {QStringLiteral("message"),
              QStringLiteral("%1 lines of the guest were dropped in all").arg(m_guestViolations)}});
}

void TurnJournal::flush()
{
    if (m_pending.isEmpty())
        return;
    const QList<TurnEventRecord> events = std::exchange(m_pending, {});
    const QList<ledger::LedgerWrite> ledger = std::exchange(m_pendingLedger, {});
    const Result<void> stored = m_records.appendEvents(events, [this, &ledger]() {
        return ledger.isEmpty() ? Result<void>() : m_ledger.apply(ledger);
    });
    emit batch(events);
    write(stored, QStringLiteral("events"));
}

} // namespace arizuko::turns
