#pragma once

// One agent turn from its queue slot to its end state: prepares the turn's
// network and proxy, boots its VM, relays the guest's messages and the
// proxy's decisions as they arrive, and tears everything down however it
// ends. Reads like Konsole's Session: a few fine-grained signals.

#include "core/result.h"
#include "libvirt/turn_domain.h"
#include "turns/guest_channel_messages.h"
#include "turns/spare_guest.h"
#include "turns/turn_environment.h"
#include "turn_records/turn_record.h"
#include "turns/turn_request.h"
#include "turn_records/turn_state.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QJsonObject>
#include <QObject>
#include <QTemporaryDir>
#include <QTimer>
#include <future>
#include <memory>
#include <optional>

namespace arizuko::gateway {
class ModelGateway;
}

namespace arizuko::tools {
class McpServer;
class TurnTools;
} // namespace arizuko::tools

namespace arizuko::libvirt {
class TurnNetwork;
} // namespace arizuko::libvirt

namespace arizuko::turns {

class EgressProxy;
class GuestChannel;

class Turn final : public QObject
{
    Q_OBJECT

public:
    Turn(TurnEnvironment &environment, TurnRecord record, TurnRequest request,
         QObject *parent = nullptr);
    ~Turn() override;

    QString id() const { return m_record.id; }
    QString name() const { return m_record.name; }
    QString folder() const { return m_record.folder; }
    QString topic() const { return m_record.topic; }
    AgentKind agent() const { return m_request.agent; }
    bool demoModel() const { return m_request.demoModel; }
    TurnState state() const { return m_record.state; }
    const TurnRecord &record() const { return m_record; }
    // The turn's /30, from its network's creation until the turn is released.
    std::optional<libvirt::Ipv4Range> subnet() const;

    // Starts preparing with what the runner resolved (policy, home,
    // session), or fails the turn with the error that resolving it met.
    void start(const Result<TurnPlan> &plan);
    // Warm start (spare_guest.h): takes over a spare made for this plan's
    // network policy and home, and sends the spec at once.
    void startWarm(const TurnPlan &plan, SpareParts spare);
    // Why the turn did not adopt a spare, as a `spare` event.
    void recordSpareSkipped(const QString &spare, const QString &why);
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
    void armDeadline();
    // The boot limit passed before the guest's first message.
    void onBootLimit();
    // The VM's, network's and tap's name: the turn's, or the adopted spare's.
    QString vmName() const { return m_spareName.isEmpty() ? name() : m_spareName; }
    Result<void> prepare(const TurnPlan &plan);
    // The network is created on a worker (libvirt takes a while and
    // retries); the rest of the preparation continues when it is there.
    void createNetwork();
    void onNetworkCreated();
    Result<void> startProxy();
    void connectProxy();
    // The `observed` and `session` events the plan calls for.
    void recordPlanNotes();
    // The turn's model gateway on the host side of its network: the only
    // place the guest's agent reaches a model, with this turn's token.
    Result<void> startGateway();
    // The turn's tools at /mcp on its gateway, bound to this turn alone.
    gateway::ToolHandler startTools();
    // escalate_group's turn: its final answer goes to the asking topic.
    void postReply(TurnState outcome);
    // Classic mode: the domain's creation starts now. Pretap mode: the filter
    // binding on the engine's tap does.
    void onProxyHealthy();
    void createDomain();
    void onDomainCreated();
    // Pretap mode: the binding is made and its rules checked, or the turn fails.
    void onFilterVerified();
    // Sends the turn spec (which starts the agent) once everything it needs
    // holds; called by each step it waits for.
    void sendSpecWhenReady();
    // Records where the guest is and relays its channel to the turn.
    void connectGuest();
    // Warm start: the spare's rules were seen in force when it was made,
    // maybe minutes ago; Pretap mode reads them back again and the spec
    // waits for that, as in a cold turn.
    void checkFilterThenSendSpec();
    // Takes the outcome of the domain creation that has just finished.
    std::optional<Error> collectDomain();
    QByteArray turnSpecLine() const;
    void onGuestMessage(const QJsonObject &message);
    // The agent's output, within the turn's budget for it.
    void recordGuestOutput(const QString &kind, const QJsonObject &json, qsizetype chars);
    void onGuestViolation(const QString &why);
    // One stdout line of Claude Code, as typed transcript events.
    void onAgentOutput(const QJsonObject &message);
    void recordModelUsage();
    void onChannelClosed();
    void finish(TurnState outcome, const std::optional<Error> &error = std::nullopt);
    // Stops what the engine runs itself (proxy, gateway, channel) at once,
    // and hands the libvirt objects to a teardown that blocks: on a worker
    // from finish(), in place from the destructor.
    struct Teardown;
    std::shared_ptr<Teardown> stopAndCollect();
    void onTornDown();
    void recordTeardown(const Teardown &teardown);
    void flushEvents();
    void enter(TurnState state);
    void recordEvent(const QString &kind, const QJsonObject &json);
    // How long one of the engine's own steps took, for `turns --events`
    // and the benchmark.
    void recordTiming(const QString &step, qint64 milliseconds);

    TurnEnvironment &m_environment;
    TurnRecord m_record;
    TurnRequest m_request;
    TurnPlan m_plan;
    // The turn's resources. Their signals reach the turn queued, so a
    // resource is never destroyed from inside one of its own signals.
    std::unique_ptr<libvirt::TurnNetwork> m_network;
    std::unique_ptr<libvirt::TurnDomain> m_domain;
    std::unique_ptr<EgressProxy> m_proxy;
    std::unique_ptr<gateway::ModelGateway> m_gateway;
    QByteArray m_gatewayToken;
    std::unique_ptr<tools::TurnTools> m_tools;
    std::unique_ptr<tools::McpServer> m_mcp;
    // The agent's last `result` text: what an escalated turn answers.
    QString m_finalAnswer;
    // A stdout line longer than one guest message, until its last piece.
    QString m_partialLine;
    std::unique_ptr<GuestChannel> m_channel;
    GuestOutputBudget m_guestOutput;
    qint64 m_guestViolations = 0;
    std::unique_ptr<QTemporaryDir> m_socketDirectory;
    struct DomainCreation;
    std::shared_ptr<DomainCreation> m_creation; // shared with the worker thread
    QFutureWatcher<void> m_creationWatcher;
    struct FilterBinding;
    std::shared_ptr<FilterBinding> m_filter; // Pretap mode, from the creation
    QFutureWatcher<void> m_filterWatcher;
    struct NetworkCreation;
    std::shared_ptr<NetworkCreation> m_networkCreation; // shared with the worker thread
    QFutureWatcher<void> m_networkWatcher;
    QElapsedTimer m_networkTime;
    std::shared_ptr<Teardown> m_teardown; // shared with the worker thread
    QFutureWatcher<void> m_teardownWatcher;
    QList<TurnEventRecord> m_pendingEvents;
    QElapsedTimer m_creationTime;
    libvirt::TurnDomainSpec m_domainSpec;
    // Pretap mode: whether the domain's creation made the tap.
    std::shared_future<bool> m_tapMade;
    std::optional<libvirt::Ipv4Range> m_subnet;
    QString m_tap; // Pretap mode: the tap (and binding) the engine made
    QString m_spareName; // warm start: the adopted spare's name
    QTimer m_deadline;
    QTimer m_bootLimit; // from Booting to the guest's first message
    QTimer m_exitGrace;
    QDeadlineTimer m_deadlineAt;
    QElapsedTimer m_proxyStarted;
    std::optional<QJsonObject> m_exit;
    qint64 m_nextSeq = 1;
    bool m_specSent = false;
    bool m_finished = false;
};

} // namespace arizuko::turns
