#include "turns/turn_runner.h"

#include "agent/claude_session.h"
#include "agent/session_files.h"
#include "agent/skills.h"
#include "agent/start_configuration.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "libvirt/machine_status.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_filter.h"
#include "libvirt/turn_network.h"
#include "policy/policy.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "tools/observations.h"
#include "turns/egress_proxy.h"
#include "turns/guest_channel.h"
#include "turns/libvirt_guest_machine.h"
#include "turns/model_provider.h"
#include "turns/turn_home.h"

#include <QUuid>
#include <QtConcurrent>
#include <algorithm>

namespace arizuko::turns {
namespace {

constexpr int storePollMs = 250;
// Each live turn blocks at most two workers at once (its domain creation
// and its teardown); more than enough for any concurrency setting.
constexpr int maxWorkers = 16;
const QString engineActor = QStringLiteral("system:turns");

// The agent as a sentence names it.
QString agentTitle(AgentKind kind)
{
    switch (kind) {
    case AgentKind::Claude:
        return QStringLiteral("Claude Code");
    case AgentKind::Codex:
        return QStringLiteral("Codex");
    case AgentKind::Pi:
        return QStringLiteral("pi");
    case AgentKind::Command:
        break;
    }
    return QStringLiteral("a command");
}

} // namespace

// A plan's part from the store, before the home's files are read.
struct TurnRunner::PlanDraft
{
    TurnPlan plan;
    // The topic changed agent with this turn (Topics::useAgent).
    bool switchedAgent = false;
};

// What a turn's plan reads from the folder home, on a worker.
struct TurnRunner::HomeFiles
{
    QList<agent::Skill> skills;
    agent::SessionFileCheck session;
};

struct TurnRunner::Startup
{
    std::shared_ptr<libvirt::Connection> connection;
    libvirt::SubnetPool pool;
    ReapReport reaped;
    host::AcceleratorChoice accelerator;
    // Opened here, off the runner's thread: the master key may come from an
    // OS keyring that takes seconds to answer. Null when it failed; a turn's
    // plan then opens the secrets itself and reports why they do not open.
    std::unique_ptr<secrets::SecretStore> secrets;
};

TurnRunner::TurnRunner(store::Store &store, RunnerSettings settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_records(store)
    , m_engine(EngineProcess::current())
{
    // The connection and pool arrive with becomeReady(); until then no turn
    // starts.
    m_environment.reset(new TurnEnvironment{store,
                                            m_records,
                                            nullptr,
                                            m_engine.mark(),
                                            std::move(settings),
                                            libvirt::SubnetPool(libvirt::Ipv4Range{}),
                                            {},
                                            {},
                                            {},
                                            {},
                                            {},
                                            {}});
    m_environment->makeMachine = [this](GuestMachineSpec spec) {
        return std::unique_ptr<GuestMachine>(
            std::make_unique<LibvirtGuestMachine>(*m_environment, std::move(spec)));
    };
    m_spares = std::make_unique<SparePool>(*m_environment);
    connect(m_spares.get(), &SparePool::ready, this,
            [this](const QString &name, const QString &folder) {
                emit spareReady(name, folder);
                // A waiting turn adopts it; not from inside the spare's own signal,
                // since adopting it takes it from the pool.
                QTimer::singleShot(0, this, &TurnRunner::schedule);
            });
    connect(m_spares.get(), &SparePool::lost, this, [this](const QString &why) {
        discardSpare(why);
        schedule();
    });
    connect(m_spares.get(), &SparePool::discarded, this, &TurnRunner::spareDiscarded);
    connect(m_spares.get(), &SparePool::settled, this, &TurnRunner::prepareSpare);
    m_environment->subnetsInUse = [this] { return subnetsInUse(); };
    m_workers.setMaxThreadCount(maxWorkers);
    m_environment->workers = &m_workers;
    m_environment->submit = [this](const TurnRequest &request) -> Result<QString> {
        const auto turn = submit(request);
        if (!turn)
            return turn.error();
        return (*turn)->name();
    };
    m_storePoll.setInterval(storePollMs);
    connect(&m_storePoll, &QTimer::timeout, this, &TurnRunner::pollStore);
    connect(&m_startupWatcher, &QFutureWatcher<void>::finished, this, [this] {
        const auto startup = std::move(m_startup);
        if (!startup || !*startup)
            return;
        if (!(*startup)->ok()) {
            emit failed((*startup)->error());
            return;
        }
        becomeReady(std::move((*startup)->value()));
        emit ready();
    });
}

TurnRunner::~TurnRunner()
{
    // A start-up still running holds only its own shared state.
    m_startupWatcher.waitForFinished();
    // Turns tear down their own VM, network and proxy as they go; so do spares.
    m_turns.clear();
    m_spares.reset();
}

Result<TurnRunner::Startup> TurnRunner::prepareHost(store::Store &store,
                                                    const RunnerSettings &settings)
{
    const auto pool = libvirt::SubnetPool::parse(settings.subnetPool);
    if (!pool)
        return pool.error();
    auto connection = libvirt::Connection::open(settings.libvirtUri);
    if (!connection)
        return connection.error();
    if (const Result<void> filter = libvirt::defineTurnFilter(**connection); !filter)
        return filter.error();
    TurnRecords records(store);
    auto reaped = reapOrphans(**connection, records, {});
    if (!reaped)
        return reaped.error();
    const host::AcceleratorChoice accelerator =
        libvirt::decideTurnAccelerator(**connection, settings);
    std::unique_ptr<secrets::SecretStore> secrets;
    if (settings.modelProvider != ModelProviderChoice::Demo) {
        if (auto opened = secrets::SecretStore::open(store, engineActor))
            secrets = std::move(*opened);
    }
    return Startup{*connection, *pool, *reaped, accelerator, std::move(secrets)};
}

void TurnRunner::becomeReady(Startup startup)
{
    m_environment->connection = std::move(startup.connection);
    m_environment->pool = startup.pool;
    m_environment->accelerator = startup.accelerator;
    m_startupReap = startup.reaped;
    m_secrets = std::move(startup.secrets);
    m_ready = true;
    m_storePoll.start();
    QTimer::singleShot(0, this, &TurnRunner::schedule);
}

Result<std::unique_ptr<TurnRunner>> TurnRunner::startBlocking(store::Store &store,
                                                              RunnerSettings settings)
{
    auto startup = prepareHost(store, settings);
    if (!startup)
        return startup.error();
    auto runner = std::make_unique<TurnRunner>(store, std::move(settings));
    runner->becomeReady(std::move(*startup));
    return runner;
}

void TurnRunner::startInBackground()
{
    if (m_ready || m_startupWatcher.isRunning())
        return;
    // The worker opens its own store connection (one per thread) and its
    // own libvirt connection, which it hands over when done.
    m_startup = std::make_shared<std::optional<Result<Startup>>>();
    m_startupWatcher.setFuture(QtConcurrent::run(
        &m_workers, [slot = m_startup, &store = m_store, settings = m_environment->settings] {
            slot->emplace(prepareHost(store, settings));
        }));
}

QList<Turn *> TurnRunner::turns() const
{
    QList<Turn *> turns;
    for (const auto &turn : m_turns)
        turns << turn.get();
    return turns;
}

Result<Turn *> TurnRunner::submit(const TurnRequest &request)
{
    folders::Folders folders(m_store, engineActor);
    const auto exists = folders.exists(request.folder);
    if (!exists)
        return exists.error();
    if (!*exists)
        return makeError(QStringLiteral("turns.no-folder"),
                         QStringLiteral("folder '%1' does not exist (create it with "
                                        "`arizukoctl folder add %1`)")
                             .arg(request.folder));
    if (request.prompt.trimmed().isEmpty())
        return makeError(
            QStringLiteral("turns.empty-prompt"),
            QStringLiteral("a turn needs a prompt or, for the command agent, a command"));

    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    TurnRecord record;
    record.id = id;
    record.name = QStringLiteral("az-") + id.left(8);
    record.folder = request.folder;
    record.topic = request.topic;
    record.agent = agentKindName(request.agent);
    record.prompt = request.prompt;
    record.state = TurnState::Queued;
    record.queuedAt = store::nowTimestamp();
    record.enginePid = m_engine.pid;
    record.engineStarted = m_engine.started;
    if (const Result<void> inserted = m_records.insert(record); !inserted)
        return inserted.error();

    m_turns.push_back(std::make_unique<Turn>(*m_environment, record, request));
    Turn *turn = m_turns.back().get();
    connect(turn, &Turn::phaseChanged, this,
            [this, turn](TurnState state) { emit turnPhaseChanged(turn, state); });
    connect(turn, &Turn::eventsReceived, this,
            [this, turn](const QList<TurnEventRecord> &events) { emit turnEvents(turn, events); });
    connect(turn, &Turn::networkDecision, this, [this, turn](const QJsonObject &decision) {
        emit turnNetworkDecision(turn, decision);
    });
    connect(turn, &Turn::finished, this, [this, turn] { emit turnFinished(turn); });
    // The slot stays taken until the turn's VM, filter and network are gone.
    connect(turn, &Turn::released, this, [this, turn] {
        // Destroyed later: the turn is still inside its own signal here.
        QTimer::singleShot(0, this, [this, turn, id = turn->id(), folder = turn->folder()] {
            // Cancelled while its home's files were read: the read's answer
            // is dropped, and the slot is free now.
            m_planning.remove(id);
            std::erase_if(m_turns, [turn](const auto &owned) { return owned.get() == turn; });
            schedule();
            // The folder's next prompt is the likeliest one.
            prepareSpare(folder);
        });
    });
    emit turnQueued(turn);
    QTimer::singleShot(0, this, &TurnRunner::schedule);
    return turn;
}

Result<void> TurnRunner::cancel(const QString &reference)
{
    const auto record = m_records.findLive(reference);
    if (!record)
        return record.error();
    for (const auto &turn : m_turns) {
        if (turn->id() == record->id) {
            turn->cancel(QStringLiteral("cancelled by the user"));
            return {};
        }
    }
    return m_records.requestCancel(record->id, store::nowTimestamp());
}

bool TurnRunner::topicBusy(const Turn &candidate)
{
    for (const auto &turn : m_turns) {
        const bool taken = turn->state() != TurnState::Queued || m_planning.contains(turn->id());
        if (turn.get() != &candidate && taken && turn->folder() == candidate.folder() &&
            turn->topic() == candidate.topic())
            return true;
    }
    // Another engine (the window while a script runs arizukoctl) may be
    // running a turn in the same topic.
    const auto engines =
        m_records.activeEnginesInTopic(candidate.folder(), candidate.topic(), candidate.id());
    if (!engines)
        return false;
    return std::any_of(engines->begin(), engines->end(), [this](const auto &engine) {
        const EngineProcess owner{engine.first, engine.second};
        return owner.pid != m_engine.pid && owner.isAlive();
    });
}

Result<TurnRunner::PlanDraft> TurnRunner::planFromStore(const Turn &turn)
{
    PlanDraft draft;
    TurnPlan &plan = draft.plan;
    const Result<TurnHome> home = resolveTurnHome(m_store, turn.folder());
    if (!home)
        return home.error();
    plan.home = *home;
    folders::Topics topics(m_store, engineActor);
    const auto existing = topics.list(turn.folder());
    if (!existing)
        return existing.error();
    // The kind of agent whose session the topic holds before this turn.
    QString earlierAgent;
    for (const folders::Topic &topic : *existing) {
        if (topic.name == turn.topic()) {
            plan.sessionId = topic.sessionId;
            earlierAgent = topic.agentKind;
        }
    }
    if (plan.sessionId.isEmpty()) {
        const auto added = topics.add(turn.folder(), turn.topic());
        if (!added)
            return added.error();
        plan.sessionId = added->sessionId;
        earlierAgent = added->agentKind;
    }
    policy::Policy policy(m_store);
    const auto network = policy.network().resolve(turn.folder());
    if (!network)
        return network.error();
    plan.allow = network->allow;
    plan.deny = network->deny;
    plan.allowAll = network->allowAll;
    if (const Result<void> session = planSession(turn, earlierAgent, draft); !session)
        return session.error();
    return draft;
}

void TurnRunner::beginPlan(Turn &turn, bool forSpare)
{
    auto draft = planFromStore(turn);
    if (!draft)
        return startPlanned(turn, forSpare, draft.error());
    auto read = [dataDir = m_store.dataDir(), home = draft->plan.home,
                 kind = agentKindName(turn.agent()), sessionId = draft->plan.sessionId,
                 command = turn.agent() == AgentKind::Command]() -> Result<HomeFiles> {
        if (command)
            return HomeFiles{};
        const auto opened = agent::HomeDirectory::open(dataDir, {home.id, home.path});
        if (!opened)
            return opened.error();
        // A malformed skill refuses the turn, naming its file and field.
        auto skills = agent::checkSkills(*opened);
        if (!skills)
            return skills.error();
        return HomeFiles{std::move(*skills), agent::inspectAgentSession(kind, *opened, sessionId)};
    };
    auto *reading = new QFutureWatcher<Result<HomeFiles>>(this);
    m_planning.insert(turn.id(), Planning{reading, forSpare});
    connect(reading, &QFutureWatcherBase::finished, this,
            [this, reading, turn = QPointer<Turn>(&turn), id = turn.id(),
             draft = std::move(*draft)]() mutable {
                reading->deleteLater();
                const auto planning = m_planning.constFind(id);
                // Dropped: the turn was released meanwhile.
                if (planning == m_planning.cend() || planning->reading != reading)
                    return;
                const bool spare = planning->forSpare;
                m_planning.erase(planning);
                // Cancelled meanwhile: nothing of it starts (the observed
                // context stays untaken), and its slot is free again.
                if (turn && turn->state() == TurnState::Queued)
                    startPlanned(*turn, spare,
                                 finishPlan(*turn, std::move(draft), reading->result()));
                schedule();
            });
    reading->setFuture(QtConcurrent::run(&m_workers, std::move(read)));
}

Result<TurnPlan> TurnRunner::finishPlan(const Turn &turn, PlanDraft draft,
                                        const Result<HomeFiles> &files)
{
    if (!files)
        return files.error();
    TurnPlan &plan = draft.plan;
    if (turn.agent() != AgentKind::Command) {
        for (const agent::Skill &skill : files->skills)
            plan.skills << skill.name;
        if (turn.agent() == AgentKind::Codex)
            plan.skillsIndex = agent::skillsIndex(files->skills, QStringLiteral("/home/agent"));
        if (const Result<void> session = planSessionFile(turn, files->session, draft); !session)
            return session.error();
        auto observed = tools::takeObservedContext(m_store, turn.folder(), turn.topic());
        if (!observed)
            return observed.error();
        plan.observedContext = *observed;
    }

    ModelProviderRequest model;
    model.choice =
        turn.demoModel() ? ModelProviderChoice::Demo : m_environment->settings.modelProvider;
    // Codex speaks the OpenAI Responses API (with OPENAI_API_KEY); Claude
    // Code and pi the Anthropic Messages API.
    model.api = turn.agent() == AgentKind::Codex ? gateway::ModelApi::OpenAIResponses
                                                 : gateway::ModelApi::AnthropicMessages;
    model.upstreamUrl = m_environment->settings.modelUrl;
    model.scriptPath = m_environment->settings.modelScript;
    model.folder = turn.folder();
    model.secrets = m_secrets.get();
    // The built-in demo fetches the engine's demo page, which only its
    // proxy may reach (demo_site.h), and a host nobody allows; a script of
    // one's own gets the folder's first allowed host.
    QString allowedUrl =
        QStringLiteral("http://%1/")
            .arg(plan.allow.isEmpty() ? QStringLiteral("example.com") : plan.allow.first());
    if (model.choice == ModelProviderChoice::Demo && model.scriptPath.isEmpty() &&
        turn.agent() != AgentKind::Command) {
        if (!m_environment->demoSite)
            m_environment->demoSite = std::make_unique<DemoSite>();
        const Result<QString> page = m_environment->demoSite->url();
        if (!page)
            return page.error();
        allowedUrl = *page;
        plan.allow << DemoSite::address;
        plan.allowLoopback = true;
    }
    model.scriptVariables = {
        {QStringLiteral("ALLOWED_URL"), allowedUrl},
        {QStringLiteral("DENIED_URL"), QStringLiteral("http://not-on-the-allowlist.example/")},
        {QStringLiteral("FOLDER"), turn.folder()}};
    // A command turn talks to no model; without a credential its gateway
    // serves the demo script rather than failing the turn.
    auto provider = resolveModelProvider(m_store, model);
    if (!provider && turn.agent() == AgentKind::Command) {
        model.choice = ModelProviderChoice::Demo;
        provider = resolveModelProvider(m_store, model);
    }
    if (!provider)
        return provider.error();
    plan.model = std::move(*provider);
    return std::move(draft.plan);
}

// A session belongs to one kind of agent: a turn of another kind starts a
// new one (Topics::useAgent), and says so when the topic had a
// conversation. Claude Code refuses to resume a session with no file, and
// a session file the agent damaged cannot be resumed either: both start
// afresh, and a topic that had a conversation says in its transcript that
// it lost it.
Result<void> TurnRunner::planSession(const Turn &turn, const QString &earlierAgent,
                                     PlanDraft &draft)
{
    if (turn.agent() == AgentKind::Command)
        return {};
    TurnPlan &plan = draft.plan;
    const QString kind = agentKindName(turn.agent());
    folders::Topics topics(m_store, engineActor);
    const auto switched = topics.useAgent(turn.folder(), turn.topic(), kind);
    if (!switched)
        return switched.error();
    draft.switchedAgent = *switched;
    if (*switched) {
        const auto listed = topics.list(turn.folder());
        if (!listed)
            return listed.error();
        for (const folders::Topic &topic : *listed) {
            if (topic.name == turn.topic())
                plan.sessionId = topic.sessionId;
        }
        const auto earlier =
            m_records.hasSessionTurns(turn.folder(), turn.topic(), turn.id(), earlierAgent);
        if (!earlier)
            return earlier.error();
        if (*earlier)
            plan.sessionNote = QStringLiteral("the topic's conversation was %1's, which %2 cannot "
                                              "resume; this turn starts a new session %3")
                                   .arg(earlierAgent, kind, plan.sessionId);
    }
    return {};
}

Result<void> TurnRunner::planSessionFile(const Turn &turn, const agent::SessionFileCheck &check,
                                         PlanDraft &draft)
{
    TurnPlan &plan = draft.plan;
    const QString kind = agentKindName(turn.agent());
    if (check.state == agent::SessionFileState::Usable)
        return {};
    plan.newSession = true;
    if (check.state == agent::SessionFileState::Absent) {
        if (draft.switchedAgent)
            return {};
        const auto earlier =
            m_records.hasSessionTurns(turn.folder(), turn.topic(), turn.id(), kind);
        if (!earlier)
            return earlier.error();
        if (*earlier)
            plan.sessionNote = QStringLiteral("the topic's session file %1 is missing; this turn "
                                              "starts a fresh conversation")
                                   .arg(turn.agent() == AgentKind::Claude
                                            ? agent::claudeSessionFile(plan.sessionId)
                                            : plan.sessionId);
        return {};
    }
    // The damaged file stays as the agent left it; the topic moves on to a
    // new session id, so nothing is overwritten.
    const QString fresh = QUuid::createUuid().toString(QUuid::WithoutBraces);
    plan.sessionNote = QStringLiteral("the topic's session could not be resumed (%1); this turn "
                                      "starts a fresh conversation as session %2")
                           .arg(check.problem, fresh);
    if (const Result<void> set =
            folders::Topics(m_store, engineActor)
                .setSessionId(turn.folder(), turn.topic(), fresh, check.problem);
        !set)
        return set;
    plan.sessionId = fresh;
    return {};
}

void TurnRunner::schedule()
{
    if (!m_ready)
        return;
    // After a libvirtd restart the old connection stays dead; new turns get
    // a fresh one (turns still running keep theirs until they end).
    if (!m_environment->connection->isAlive()) {
        if (auto fresh = libvirt::Connection::open(m_environment->settings.libvirtUri))
            m_environment->connection = *fresh;
    }
    // A turn that ended holds its slot until it is released (torn down); a
    // spare holds one until it is adopted or discarded; a turn being planned
    // holds its own, or the spare's when it is to adopt it.
    int active = m_spares->hasSpare() ? 1 : 0;
    for (const auto &turn : m_turns) {
        if (turn->state() != TurnState::Queued || planningOwnSlot(*turn))
            ++active;
    }
    // Starting a turn can end it at once; the runner erases a turn only
    // from a later event, but walk a copy so that no erase can meet this loop.
    QList<QPointer<Turn>> queued;
    for (const auto &turn : m_turns) {
        if (turn->state() == TurnState::Queued)
            queued << turn.get();
    }
    for (const QPointer<Turn> &turn : queued) {
        if (!turn || turn->state() != TurnState::Queued || m_planning.contains(turn->id()) ||
            topicBusy(*turn))
            continue;
        if (m_spares->basis() && m_spares->basis()->folder == turn->folder()) {
            // Still booting: it is ready (or lost) soon, and schedules again;
            // taken by a turn being planned: that one's plan decides.
            if (m_spares->isReady() && !spareClaimed())
                beginPlan(*turn, true);
            continue;
        }
        // A spare never keeps a queued turn waiting: it yields its slot.
        if (active >= m_environment->settings.maxConcurrentTurns && m_spares->hasSpare() &&
            !spareClaimed()) {
            discardSpare(QStringLiteral("a queued turn of another folder needs its slot"));
            --active;
        }
        if (active >= m_environment->settings.maxConcurrentTurns)
            return;
        ++active;
        beginPlan(*turn, false);
    }
}

void TurnRunner::startPlanned(Turn &turn, bool forSpare, const Result<TurnPlan> &plan)
{
    if (forSpare && m_spares->isReady() && m_spares->basis() &&
        m_spares->basis()->folder == turn.folder())
        startInSpare(turn, plan);
    else
        turn.start(plan);
}

bool TurnRunner::planningOwnSlot(const Turn &turn) const
{
    const auto planning = m_planning.constFind(turn.id());
    return planning != m_planning.cend() && !planning->forSpare;
}

bool TurnRunner::spareClaimed() const
{
    return std::any_of(m_planning.cbegin(), m_planning.cend(),
                       [](const Planning &planning) { return planning.forSpare; });
}

Result<SpareBasis> TurnRunner::spareBasis(const QString &folder)
{
    SpareBasis basis;
    basis.folder = folder;
    const Result<TurnHome> home = resolveTurnHome(m_store, folder);
    if (!home)
        return home.error();
    basis.home = *home;
    const auto network = policy::Policy(m_store).network().resolve(folder);
    if (!network)
        return network.error();
    basis.allow = network->allow;
    basis.deny = network->deny;
    basis.allowAll = network->allowAll;
    if (const std::optional<AgentKind> agent = agentToStartAhead(folder))
        basis.agent = PrestartedAgent{*agent, m_environment->settings.model,
                                      QUuid::createUuid().toString(QUuid::WithoutBraces)};
    return basis;
}

std::optional<AgentKind> TurnRunner::agentToStartAhead(const QString &folder)
{
    if (!m_environment->settings.prestartAgent)
        return std::nullopt;
    // The folder's next turn is likeliest of the agent its last one ran (a
    // new folder's, of the composer's first choice); a command is not
    // started ahead.
    const Result<QString> last = m_environment->records.lastAgent(folder);
    if (!last || last->isEmpty())
        return AgentKind::Claude;
    const std::optional<AgentKind> kind = agentKindFromName(*last);
    if (kind == AgentKind::Command)
        return std::nullopt;
    return kind;
}

QString TurnRunner::prestartRefusal(const Turn &turn, const TurnPlan &plan)
{
    const PrestartedAgent &agent = *m_spares->basis()->agent;
    if (turn.agent() != agent.agent)
        return QStringLiteral("the spare started %1, the turn runs %2")
            .arg(agentTitle(agent.agent), agentTitle(turn.agent()));
    // The agent reads all of these only at its start.
    if (!plan.newSession)
        return QStringLiteral("the topic resumes its session");
    if (!plan.sessionNote.isEmpty())
        return QStringLiteral("the topic's session was lost");
    if (!plan.skills.isEmpty())
        return QStringLiteral("the folder has skills");
    if (turn.model() != agent.model)
        return QStringLiteral("the model changed since the spare was made");
    const auto home = agent::HomeDirectory::open(m_store.dataDir(), {plan.home.id, plan.home.path});
    if (!home)
        return home.error().message;
    const QStringList read = agent::startConfiguration(agentKindName(agent.agent), *home);
    if (!read.isEmpty())
        return QStringLiteral("the home holds %1, which %2 reads only at its start")
            .arg(read.join(QStringLiteral(", ")), agentTitle(agent.agent));
    return {};
}

void TurnRunner::startInSpare(Turn &turn, const Result<TurnPlan> &turnPlan)
{
    // What the turn would run with now, against what the spare was made
    // with: a changed rule, grant or home means the spare's proxy or share
    // is stale, and a stale allowlist is never used.
    QString stale =
        turnPlan ? m_spares->basis()->differenceFrom(SpareBasis::of(turn.folder(), *turnPlan))
                 : turnPlan.error().message;
    if (stale.isEmpty() && !m_spares->connectionAlive())
        stale = QStringLiteral("libvirtd closed the connection the spare was made on");
    if (turnPlan && stale.isEmpty()) {
        // Right before the turn is handed to the spare: the directory its
        // VM shares (opened when the spare booted) is still the folder's
        // home, at its place and reached through no link. A home replaced
        // after the plan was resolved matches the basis but not this.
        if (const Result<void> home = checkTurnHome(m_store.dataDir(), m_spares->basis()->home);
            !home) {
            turn.recordSpareSkipped(m_spares->spareName(), home.error().message);
            discardSpare(home.error().message);
            turn.start(home.error());
            return;
        }
        TurnPlan warm = *turnPlan;
        QString refusal;
        if (const auto &agent = m_spares->basis()->agent) {
            refusal = prestartRefusal(turn, warm);
            // The started agent's session is the topic's from now on.
            if (refusal.isEmpty()) {
                if (const Result<void> set =
                        folders::Topics(m_store, engineActor)
                            .setSessionId(turn.folder(), turn.topic(), agent->sessionId,
                                          QStringLiteral("the spare's started agent answers"));
                    set)
                    warm.sessionId = agent->sessionId;
                else
                    refusal = set.error().message;
            }
        }
        turn.startWarm(warm, m_spares->adopt(), refusal);
        return;
    }
    turn.recordSpareSkipped(m_spares->spareName(), stale);
    discardSpare(stale);
    turn.start(turnPlan);
}

void TurnRunner::prepareSpare(const QString &folder)
{
    if (!m_ready || !m_keepsSpares || !m_environment->settings.warmStart)
        return;
    if (m_spares->basis() && m_spares->basis()->folder == folder)
        return;
    int active = 0;
    for (const auto &turn : m_turns) {
        // Queued turns come first.
        if (turn->state() == TurnState::Queued)
            return;
        ++active;
    }
    if (active >= m_environment->settings.maxConcurrentTurns) {
        discardSpare(QStringLiteral("the next turn is more likely in %1").arg(folder));
        return;
    }
    if (const auto basis = spareBasis(folder))
        m_spares->boot(*basis);
}

void TurnRunner::suggestSpare(const QString &folder)
{
    if (m_ready && m_keepsSpares && m_environment->settings.warmStart)
        m_spares->settle(folder);
}

void TurnRunner::discardSpare(const QString &why)
{
    // A turn being planned to adopt it starts cold, in a slot of its own.
    for (Planning &planning : m_planning)
        planning.forSpare = false;
    m_spares->discard(why);
}

QString TurnRunner::spareName() const
{
    return m_spares->spareName();
}

void TurnRunner::pollStore()
{
    const auto requested = m_records.cancelRequested(m_engine.pid);
    if (!requested)
        return;
    for (const auto &turn : m_turns) {
        if (requested->contains(turn->id()))
            turn->cancel(QStringLiteral("cancelled by the user (arizukoctl cancel)"));
    }
    const bool waiting = std::any_of(m_turns.begin(), m_turns.end(), [](const auto &turn) {
        return turn->state() == TurnState::Queued;
    });
    if (waiting)
        schedule();
}

QList<libvirt::Ipv4Range> TurnRunner::subnetsInUse() const
{
    QList<libvirt::Ipv4Range> ranges;
    for (const auto &turn : m_turns) {
        if (const auto subnet = turn->subnet())
            ranges << *subnet;
    }
    // A spare's /30, and those of spares still tearing down.
    return ranges + m_spares->subnets();
}

} // namespace arizuko::turns
