#include "turns/turn.h"

#include "core/soft_assert.h"
#include "policy/request_rule.h"
#include "store/store.h"
#include "turns/agent_session.h"
#include "turns/egress_questions.h"
#include "turns/prestart_decision.h"
#include "turns/spare_pool.h"
#include "turns/turn_outcome.h"
#include "turns/turn_services.h"
#include "turns/turn_spec.h"

#include <QDir>
#include <QFile>
#include <QPointer>

namespace arizuko::turns {
namespace {

// After the guest reports its exit it syncs and powers off by itself; this
// is how long it gets before the VM is destroyed anyway.
constexpr int exitGraceMs = 3000;
// How long a turn's CA stays valid past its deadline: the turn's ending.
constexpr int inspectionCaMarginSeconds = 300;

} // namespace

Turn::Turn(TurnEnvironment &environment, TurnRecord record, TurnRequest request, QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_request(std::move(request))
    , m_journal(new TurnJournal(environment.store, environment.records, std::move(record), this))
{
    connect(m_journal, &TurnJournal::batch, this, [this](const QList<TurnEventRecord> &events) {
        emit eventsReceived(events);
        for (const TurnEventRecord &event : events)
            emit eventReceived(event);
    });
    // Once the turn has ended, the log is all that is left to tell.
    connect(m_journal, &TurnJournal::storeFailed, this, [this](const Error &error) {
        AZ_ASSERT(m_finished, finish(TurnState::Failed, error); return );
        AZ_ASSERT_OK(Result<void>(error), "storing an ended turn");
    });
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        finish(TurnState::Failed, makeError(QStringLiteral("turns.deadline"),
                                            QStringLiteral("the turn's deadline of %1 s passed")
                                                .arg(m_deadline.interval() / 1000)));
    });
    m_bootLimit.setSingleShot(true);
    connect(&m_bootLimit, &QTimer::timeout, this, [this] {
        finish(TurnState::Failed,
               bootTimeoutError(consoleLogPath(), m_bootLimit.intervalAsDuration()));
    });
    m_exitGrace.setSingleShot(true);
    m_exitGrace.setInterval(exitGraceMs);
    connect(&m_exitGrace, &QTimer::timeout, this, &Turn::onChannelClosed);
    connect(&m_environment.agentGate, &AgentGate::opened, this,
            [this](const QString &turnId, const Result<void> &ready) {
                if (turnId != id())
                    return;
                if (!ready)
                    finish(TurnState::Failed, ready.error());
                else
                    onMachineReady();
            });
}

Turn::~Turn()
{
    // The engine is going away (or the turn ended and libvirt is still
    // tearing down): the VM must not outlive it.
    if (m_machine && m_machine->state() != GuestMachine::State::Stopped) {
        if (m_services)
            m_services->stop();
        m_journal->recordTeardown(m_machine->stopAndWait());
    }
    m_journal->flush();
}

std::optional<libvirt::Ipv4Range> Turn::subnet() const
{
    if (!m_machine || m_machine->state() == GuestMachine::State::Stopped)
        return std::nullopt;
    if (const auto subnet = m_machine->subnet())
        return subnet->range;
    return std::nullopt;
}

QString Turn::turnDirectory() const
{
    return QDir(m_environment.store.dataDir()).filePath(QStringLiteral("turns/") + id());
}

QString Turn::consoleLogPath() const
{
    return QDir(turnDirectory()).filePath(QStringLiteral("console.log"));
}

QString Turn::model() const
{
    return m_request.model.isEmpty() ? m_environment.settings.model : m_request.model;
}

bool Turn::begin(const Result<TurnPlan> &plan)
{
    AZ_ASSERT(!m_started, return false);
    m_started = true;
    if (plan) {
        m_plan = *plan;
        m_journal->setNetworkPolicy(m_plan.network);
        m_agent = makeAgentSession(m_request.agent,
                                   {m_request.prompt, model(), m_plan.sessionId, m_plan.newSession,
                                    m_plan.observedContext, m_plan.skillsIndex});
        const auto deadline = std::chrono::duration_cast<std::chrono::milliseconds>(
            m_request.deadline.count() > 0 ? m_request.deadline
                                           : m_environment.settings.defaultDeadline);
        m_deadlineAt = QDeadlineTimer(deadline);
        m_deadline.start(deadline);
    }
    enter(TurnState::Preparing);
    if (!plan)
        finish(TurnState::Failed, plan.error());
    return !m_finished;
}

void Turn::start(const Result<TurnPlan> &plan)
{
    if (!begin(plan))
        return;
    // Once: what the proxy inspects, and by which rules.
    policy::ProxyInspection inspection =
        policy::proxyInspection(m_plan.network, boundSecretHosts(m_plan.boundSecrets));
    GuestMachineSpec spec{name(),
                          m_plan.home,
                          turnDirectory(),
                          m_plan.allow,
                          m_plan.deny,
                          m_plan.allowAll,
                          m_plan.allowLoopback,
                          m_plan.unlisted,
                          folder(),
                          0,
                          std::move(inspection.rules),
                          {},
                          {},
                          m_plan.boundSecrets};
    if (!inspection.hosts.isEmpty()) {
        spec.inspectedHosts = std::move(inspection.hosts);
        // The CA outlives the turn's deadline only by the time its ending takes.
        spec.inspectUntil = QDateTime::currentDateTimeUtc()
                                .addMSecs(m_deadlineAt.remainingTime())
                                .addSecs(inspectionCaMarginSeconds);
    }
    adoptMachine(m_environment.makeMachine(std::move(spec)));
    m_machine->start();
}

void Turn::startWarm(const TurnPlan &plan, BootedGuest spare, const QString &prestartRefusal)
{
    // A turn that cannot start lets the spare's machine go (the machine's
    // destructor tears it down).
    if (!begin(plan))
        return;
    m_journal->recordSpareAdopted(*spare.machine, spare.ageMs);
    if (spare.services) {
        // The started agent's gateway becomes the turn's: bound to the
        // turn, serving the model resolved now.
        for (const auto &[kind, json] : std::as_const(spare.serviceEvents))
            m_journal->record(kind, json);
        adoptServices(std::move(spare.services));
        m_services->bind({id(), folder(), topic(), m_request.depth}, m_plan.model);
    }
    if (spare.agent && m_services)
        usePrestartedAgent(prestartRefusal.isEmpty(), prestartRefusal);
    // The console log stays where the spare's guest writes it; the turn's
    // directory links to it, where every message points.
    QDir().mkpath(turnDirectory());
    QFile::link(spare.machine->consoleLogPath(), consoleLogPath());
    adoptMachine(std::move(spare.machine));
    // The spare made all of it before the turn existed; the "spec" timing
    // counts from the adoption.
    takeNetwork();
    takeProxy();
    takeProxyAddress();
    enterBooting();
    takeDomain();
    // The proxy may have ended, or the guest stopped, between the spare's
    // last look and now; the turn's own handlers are connected from here.
    if (!m_machine->proxyRunning())
        finish(TurnState::Failed,
               makeError(QStringLiteral("turns.proxy-died"),
                         QStringLiteral("the spare's proxy had ended; nothing leaves the VM "
                                        "without it")));
    for (const QJsonObject &message : spare.guestMessages)
        onGuestMessage(message);
    m_machine->recheck();
}

void Turn::usePrestartedAgent(bool use, const QString &reason)
{
    m_prestarted = use;
    m_journal->recordPrestart(use, reason);
}

void Turn::adoptServices(std::unique_ptr<TurnServices> services)
{
    m_services = std::move(services);
    disconnect(m_services.get(), nullptr, nullptr, nullptr);
    connect(m_services.get(), &TurnServices::event, m_journal, &TurnJournal::record);
    connect(
        m_services.get(), &TurnServices::upstreamFailed, this,
        [this](const Error &error) { finish(TurnState::Failed, error); }, Qt::QueuedConnection);
}

void Turn::adoptMachine(std::unique_ptr<GuestMachine> machine)
{
    m_machine = std::move(machine);
    GuestMachine *vm = m_machine.get();
    // A spare's own handlers are gone; the turn's take over.
    disconnect(vm, nullptr, nullptr, nullptr);
    constexpr auto queued = Qt::QueuedConnection;
    connect(vm, &GuestMachine::networkReady, this, &Turn::takeNetwork, queued);
    connect(vm, &GuestMachine::proxyStarted, this, &Turn::takeProxy, queued);
    connect(vm, &GuestMachine::proxyHealthy, this, &Turn::takeProxyAddress, queued);
    connect(vm, &GuestMachine::booting, this, &Turn::enterBooting, queued);
    connect(vm, &GuestMachine::domainCreated, this, &Turn::takeDomain, queued);
    connect(vm, &GuestMachine::ready, this, &Turn::onMachineReady, queued);
    connect(vm, &GuestMachine::timing, m_journal, &TurnJournal::recordTiming, queued);
    connect(vm, &GuestMachine::guestMessage, this, &Turn::onGuestMessage, queued);
    connect(
        vm, &GuestMachine::guestViolation, this,
        [this](const QString &why) {
            if (!m_finished)
                m_journal->recordGuestViolation(why);
        },
        queued);
    connect(vm, &GuestMachine::guestClosed, this, &Turn::onChannelClosed, queued);
    connect(
        vm, &GuestMachine::networkDecision, this,
        [this](const QJsonObject &decision) {
            m_journal->record(QStringLiteral("network"), decision);
            emit networkDecision(decision);
        },
        queued);
    connect(vm, &GuestMachine::networkQuestion, this, &Turn::onNetworkQuestion, queued);
    connect(
        vm, &GuestMachine::failed, this,
        [this](const Error &error) { finish(TurnState::Failed, error); }, queued);
    connect(
        vm, &GuestMachine::stopped, this,
        [this](const GuestTeardown &teardown) {
            m_journal->recordTeardown(teardown);
            m_journal->flush();
            emit released();
        },
        queued);
}

void Turn::cancel(const QString &why)
{
    if (m_finished)
        return;
    m_journal->record(QStringLiteral("cancel"), {{QStringLiteral("reason"), why}});
    finish(TurnState::Cancelled);
}

void Turn::takeNetwork()
{
    if (m_finished)
        return;
    const libvirt::TurnSubnet subnet = *m_machine->subnet();
    m_journal->setNetwork(subnet.range.cidr(), m_machine->name());
    // A spare's started agent came with its gateway already listening.
    if (!m_services) {
        adoptServices(std::make_unique<TurnServices>(
            m_environment, TurnServiceBinding{id(), folder(), topic(), m_request.depth}));
        if (const Result<void> listening = m_services->start(subnet, m_plan.model); !listening) {
            finish(TurnState::Failed, listening.error());
            return;
        }
    }
    m_journal->recordPlanNotes(m_plan.observedContext, m_plan.sessionId, m_plan.sessionNote);
}

void Turn::takeProxy()
{
    m_journal->setProxyPid(m_machine->proxyPid());
}

void Turn::takeProxyAddress()
{
    m_journal->setProxyAddress(QStringLiteral("%1:%2")
                                   .arg(m_machine->subnet()->hostAddress())
                                   .arg(m_machine->proxyPort()));
}

void Turn::enterBooting()
{
    if (m_finished)
        return;
    m_specClock.start();
    enter(TurnState::Booting);
}

void Turn::takeDomain()
{
    m_journal->setMachine(m_machine->name(),
                          host::acceleratorName(m_environment.accelerator.accelerator));
}

void Turn::onMachineReady()
{
    // The machine says the VM is up, the proxy healthy and the filter's
    // rules in force; the spec also needs the gateway it names.
    if (m_finished || m_specSent || m_environment.agentGate.isHeld(id()) || !m_machine ||
        m_machine->state() != GuestMachine::State::Ready)
        return;
    AZ_ASSERT(m_services && m_services->isListening(), return );
    m_specSent = true;
    m_journal->recordTiming(QStringLiteral("spec"), m_specClock.elapsed());
    // The services are the turn's own: their tools, and so this callback,
    // go with the turn.
    m_services->readShellEnvironment([this](const QJsonObject &secrets) { sendSpec(secrets); });
}

void Turn::sendSpec(const QJsonObject &shellSecrets)
{
    if (m_finished || !m_machine || m_machine->state() != GuestMachine::State::Ready)
        return;
    // A bound secret's name carries its placeholder, never its value, even
    // where a shell:env grant read the value.
    const QJsonObject secrets = withPlaceholders(shellSecrets, m_plan.boundSecrets);
    // A grant added since the adoption: the started agent cannot take it.
    if (m_prestarted && !secrets.isEmpty())
        usePrestartedAgent(false, PrestartDecision::shellEnvironmentRefusal());
    TurnSpecPlace place{id(),
                        folder(),
                        topic(),
                        *m_machine->subnet(),
                        m_machine->proxyPort(),
                        m_environment.settings.gatewayPort,
                        m_services->token(),
                        !m_plan.skills.isEmpty(),
                        std::max<qint64>(1, m_deadlineAt.remainingTime() / 1000),
                        secrets,
                        m_prestarted,
                        m_machine->inspectionCertificate()};
    m_machine->sendSpec(turnSpecLine(m_agent->specMembers(), place));
}

void Turn::onGuestMessage(const QJsonObject &message)
{
    if (m_finished)
        return;
    if (state() == TurnState::Booting)
        enter(TurnState::Running);
    // The channel let through only the types a guest sends (status, event,
    // log, exit); status and exit come once each, the output is budgeted.
    const QString type = message.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("event")) {
        for (const AgentOutput &output : m_agent->read(message))
            m_journal->recordGuestOutput(output.kind, output.json, output.chars);
        if (const std::optional<QString> moved = m_agent->takeMovedSession())
            m_journal->followSession(*moved);
        return;
    }
    if (type == QLatin1String("log"))
        m_journal->recordGuestOutput(type, message,
                                     message.value(QStringLiteral("line")).toString().size());
    else
        m_journal->record(type, message);
    if (type == QLatin1String("exit")) {
        m_exit = message;
        // The ack tells the guest everything arrived, so it powers off now
        // instead of after its own 3 s wait.
        m_machine->send({{QStringLiteral("type"), QStringLiteral("ack")},
                         {QStringLiteral("seq"), message.value(QStringLiteral("seq"))}});
        m_exitGrace.start();
    }
}

void Turn::onChannelClosed()
{
    if (m_finished)
        return;
    if (m_exit)
        m_journal->setExitCode(m_exit->value(QStringLiteral("code")).toInt());
    const TurnOutcome outcome = outcomeOfGuestExit(m_exit, consoleLogPath());
    finish(outcome.state, outcome.error);
}

void Turn::onNetworkQuestion(const QJsonObject &line)
{
    QPointer<GuestMachine> machine = m_machine.get();
    ProxyAnswerer answerer = [machine](quint64 proxyId, const QString &answer,
                                       const QString &reason) {
        if (machine)
            machine->answerQuestion(proxyId, answer, reason);
    };
    if (m_finished || !m_environment.questions) {
        answerer(quint64(line.value(QStringLiteral("id")).toInteger()), QStringLiteral("deny"),
                 QString::fromLatin1(noAnswer));
        return;
    }
    m_environment.questions->ask({id(), folder(), m_plan.unlisted.timeout}, line,
                                 std::move(answerer));
}

void Turn::finish(TurnState outcome, const std::optional<Error> &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_environment.agentGate.forget(id());
    if (m_environment.questions)
        m_environment.questions->closeTurn(id());
    m_deadline.stop();
    m_bootLimit.stop();
    m_exitGrace.stop();
    enter(TurnState::Finishing);
    if (error)
        m_journal->setError(*error);
    m_journal->recordGuestViolationTotal();
    if (const std::optional<gateway::ModelUsage> usage =
            m_services ? m_services->usage() : std::nullopt)
        m_journal->setUsage(usage->toJson(), usage->costUsd);
    // The parent's answer to an escalation goes back before the VM does.
    if (!m_request.replyFolder.isEmpty())
        m_journal->postReply(m_request, outcome, m_agent ? m_agent->finalAnswer() : QString());
    if (m_services)
        m_services->stop();
    // The turn is over for the user now: its last event is stored, and
    // destroying the VM, filter, tap and network follows on a worker. The
    // runner keeps the turn's slot until released().
    enter(outcome);
    m_journal->flush();
    emit finished(outcome);
    if (m_machine)
        m_machine->stop();
    else
        QMetaObject::invokeMethod(this, &Turn::released, Qt::QueuedConnection);
}

void Turn::enter(TurnState state)
{
    if (state == TurnState::Booting)
        m_bootLimit.start(m_environment.settings.bootLimit);
    else if (state == TurnState::Running)
        m_bootLimit.stop();
    m_journal->enter(state);
    emit phaseChanged(state);
}

} // namespace arizuko::turns
