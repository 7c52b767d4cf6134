#pragma once

// One agent turn from its queue slot to its end state: asks its guest
// machine (guest_machine.h) for a VM, serves the guest its model gateway
// and tools, hands the agent its spec once the machine is ready, types what
// the agent writes into transcript events, and ends however the turn ends.
// Reads like Konsole's Session: a few fine-grained signals.

#include "core/result.h"
#include "turn_records/turn_record.h"
#include "turn_records/turn_state.h"
#include "turns/guest_machine.h"
#include "turns/turn_environment.h"
#include "turns/turn_journal.h"
#include "turns/turn_request.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace arizuko::turns {

class AgentSession;
class TurnServices;
struct BootedGuest;

class Turn final : public QObject
{
    Q_OBJECT

public:
    Turn(TurnEnvironment &environment, TurnRecord record, TurnRequest request,
         QObject *parent = nullptr);
    ~Turn() override;

    QString id() const { return record().id; }
    QString name() const { return record().name; }
    QString folder() const { return record().folder; }
    QString topic() const { return record().topic; }
    AgentKind agent() const { return m_request.agent; }
    bool demoModel() const { return m_request.demoModel; }
    // Claude Code's --model for this turn: the request's, else the setting's.
    QString model() const;
    TurnState state() const { return record().state; }
    const TurnRecord &record() const { return m_journal->row(); }
    // The turn's /30, from its network's creation until the turn is released.
    std::optional<libvirt::Ipv4Range> subnet() const;

    // Starts preparing with what the runner resolved (policy, home,
    // session), or fails the turn with the error that resolving it met.
    // A turn starts once: a second start (cold or warm) is refused.
    void start(const Result<TurnPlan> &plan);
    // Warm start: takes over a machine booted ahead for this plan's network
    // policy and home (spare_pool.h), and sends the spec once it holds.
    // A spare's started agent answers the prompt unless `prestartRefusal`
    // (PrestartDecision) says why it cannot: then the guest launches one as
    // a cold turn does. When it answers, the plan's session is the agent's.
    void startWarm(const TurnPlan &plan, BootedGuest spare, const QString &prestartRefusal);
    // Why the turn did not adopt a spare, as a `spare` event.
    void recordSpareSkipped(const QString &spare, const QString &why)
    {
        m_journal->recordSpareSkipped(spare, why);
    }
    // Ends the turn as cancelled: the VM, network and proxy go at once.
    void cancel(const QString &why);

signals:
    void phaseChanged(arizuko::turns::TurnState state);
    // Events are stored and emitted once per event-loop pass: one
    // transaction and one batch for everything that arrived in it (then
    // eventReceived for each, in order).
    void eventsReceived(const QList<arizuko::turns::TurnEventRecord> &events);
    void eventReceived(const arizuko::turns::TurnEventRecord &event);
    void networkDecision(const QJsonObject &decision);
    // The turn has ended for the user (its end state and last event are
    // stored); its VM, filter, tap and network are still being destroyed.
    void finished(arizuko::turns::TurnState outcome);
    // Everything of the turn is gone: its concurrency slot is free.
    void released();

private:
    // Refuses a second start; the plan's error fails the turn at once.
    bool begin(const Result<TurnPlan> &plan);
    void adoptMachine(std::unique_ptr<GuestMachine> machine);
    // Its proxy holds a request and asks the engine's questions.
    void onNetworkQuestion(const QJsonObject &line);
    void adoptServices(std::unique_ptr<TurnServices> services);
    // Whether the spec goes to the started agent; recorded as a `prestart`
    // event when it changes or is decided.
    void usePrestartedAgent(bool use, const QString &reason);
    // What the machine has made, each kept in the turn's row (the network
    // also starts the gateway): a cold turn takes each when the machine
    // reports it, a warm one all at once from the spare that made them.
    void takeNetwork();
    void takeProxy();
    void takeProxyAddress();
    void enterBooting();
    void takeDomain();
    // The spec, which starts the agent, once the machine holds and the
    // agent's gate (agent_gate.h) is open.
    void onMachineReady();
    // The spec line, with the folder's shell:env secrets once read.
    void sendSpec(const QJsonObject &secrets);
    void onGuestMessage(const QJsonObject &message);
    void onChannelClosed();
    void finish(TurnState outcome, const std::optional<Error> &error = std::nullopt);
    void enter(TurnState state);
    QString turnDirectory() const;
    QString consoleLogPath() const;

    TurnEnvironment &m_environment;
    TurnRequest m_request;
    TurnPlan m_plan;
    // Its signals reach the turn queued, so the machine is never destroyed
    // from inside one of its own signals.
    std::unique_ptr<GuestMachine> m_machine;
    std::unique_ptr<TurnServices> m_services;
    std::unique_ptr<AgentSession> m_agent;
    TurnJournal *m_journal; // a child: the turn's row and its events
    // From the domain's creation (or the spare's adoption) to the spec.
    QElapsedTimer m_specClock;
    QTimer m_deadline;
    QTimer m_bootLimit; // from Booting to the guest's first message
    QTimer m_exitGrace;
    QDeadlineTimer m_deadlineAt;
    std::optional<QJsonObject> m_exit;
    bool m_started = false;
    bool m_specSent = false;
    bool m_prestarted = false; // the spec goes to the spare's started agent
    bool m_finished = false;
};

} // namespace arizuko::turns
