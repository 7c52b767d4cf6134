#include "turns/turn_planner.h"

#include "agent/agent_profile.h"
#include "agent/session_files.h"
#include "agent/skills.h"
#include "core/actors.h"
#include "core/run_on_worker.h"
#include "folders/topics.h"
#include "policy/policy.h"
#include "secrets/secret_bindings.h"
#include "secrets/secret_store.h"
#include "store/store.h"
#include "tools/observations.h"
#include "turns/guest_proxy_options.h"
#include "turns/model_provider.h"

#include <QUuid>

namespace arizuko::turns {
namespace {

// One plan, on a worker: its own store connection (one per thread) and
// nothing of the runner's thread but the shared secrets, under their lock.
class PlanWork
{
public:
    PlanWork(store::Store &store, const PlanRequest &request, const std::atomic<bool> &dropped)
        : m_store(store)
        , m_records(store)
        , m_turn(request)
        , m_dropped(dropped)
        , m_kind(agentKindName(request.agent))
        , m_profile(agentProfileOf(request.agent))
    {}

    // `model` is completed here from the store and the secrets, which are
    // used under their lock.
    Result<TurnPlan> run(ModelProviderRequest model, bool demoPage, QMutex &secretsLock,
                         const std::unique_ptr<secrets::SecretStore> &secrets);

private:
    Result<void> fromStore();
    Result<void> planSession(const QString &earlierAgent);
    Result<void> fromHome();
    Result<void> planSessionFile(const agent::SessionFileCheck &check);
    Result<void> planModel(ModelProviderRequest model, bool demoPage, QMutex &secretsLock,
                           const std::unique_ptr<secrets::SecretStore> &secrets);
    Result<void> planBoundSecrets(QMutex &secretsLock,
                                  const std::unique_ptr<secrets::SecretStore> &secrets);

    store::Store &m_store;
    TurnRecords m_records;
    const PlanRequest &m_turn;
    const std::atomic<bool> &m_dropped;
    const QString m_kind;
    // Null for the command agent: no conversation, no model.
    const agent::AgentProfile *const m_profile;
    TurnPlan m_plan;
    // The topic changed agent with this turn (Topics::useAgent).
    bool m_switchedAgent = false;
};

Result<TurnPlan> PlanWork::run(ModelProviderRequest model, bool demoPage, QMutex &secretsLock,
                               const std::unique_ptr<secrets::SecretStore> &secrets)
{
    if (const Result<void> stored = fromStore(); !stored)
        return stored.error();
    if (const Result<void> home = fromHome(); !home)
        return home.error();
    if (const Result<void> provider = planModel(std::move(model), demoPage, secretsLock, secrets);
        !provider)
        return provider.error();
    if (const Result<void> bound = planBoundSecrets(secretsLock, secrets); !bound)
        return bound.error();
    return std::move(m_plan);
}

Result<void> PlanWork::fromStore()
{
    const Result<TurnHome> home = resolveTurnHome(m_store, m_turn.folder);
    if (!home)
        return home.error();
    m_plan.home = *home;
    folders::Topics topics(m_store, actors::turns);
    const auto existing = topics.list(m_turn.folder);
    if (!existing)
        return existing.error();
    // The kind of agent whose session the topic holds before this turn.
    QString earlierAgent;
    for (const folders::Topic &topic : *existing) {
        if (topic.name == m_turn.topic) {
            m_plan.sessionId = topic.sessionId;
            earlierAgent = topic.agentKind;
        }
    }
    if (m_plan.sessionId.isEmpty()) {
        const auto added = topics.add(m_turn.folder, m_turn.topic);
        if (!added)
            return added.error();
        m_plan.sessionId = added->sessionId;
        earlierAgent = added->agentKind;
    }
    const auto network = policy::Policy(m_store).network().resolve(m_turn.folder);
    if (!network)
        return network.error();
    m_plan.allow = network->allow;
    m_plan.deny = network->deny;
    m_plan.allowAll = network->allowAll;
    const auto unlisted = unlistedHostsPolicy(m_store, m_turn.folder);
    if (!unlisted)
        return unlisted.error();
    m_plan.unlisted = *unlisted;
    m_plan.network = *network;
    return planSession(earlierAgent);
}

// A session belongs to one kind of agent: a turn of another kind starts a
// new one (Topics::useAgent), and says so when the topic had a
// conversation. Claude Code refuses to resume a session with no file, and
// a session file the agent damaged cannot be resumed either: both start
// afresh, and a topic that had a conversation says in its transcript that
// it lost it.
Result<void> PlanWork::planSession(const QString &earlierAgent)
{
    if (!m_profile)
        return {};
    folders::Topics topics(m_store, actors::turns);
    const auto switched = topics.useAgent(m_turn.folder, m_turn.topic, m_kind);
    if (!switched)
        return switched.error();
    m_switchedAgent = *switched;
    if (!*switched)
        return {};
    const auto listed = topics.list(m_turn.folder);
    if (!listed)
        return listed.error();
    for (const folders::Topic &topic : *listed) {
        if (topic.name == m_turn.topic)
            m_plan.sessionId = topic.sessionId;
    }
    const auto earlier =
        m_records.hasSessionTurns(m_turn.folder, m_turn.topic, m_turn.turnId, earlierAgent);
    if (!earlier)
        return earlier.error();
    if (*earlier)
        m_plan.sessionNote = QStringLiteral("the topic's conversation was %1's, which %2 cannot "
                                            "resume; this turn starts a new session %3")
                                 .arg(earlierAgent, m_kind, m_plan.sessionId);
    return {};
}

Result<void> PlanWork::fromHome()
{
    if (!m_profile)
        return {};
    const auto home =
        agent::HomeDirectory::open(m_store.dataDir(), {m_plan.home.id, m_plan.home.path});
    if (!home)
        return home.error();
    // A malformed skill refuses the turn, naming its file and field.
    const auto skills = agent::checkSkills(*home);
    if (!skills)
        return skills.error();
    for (const agent::Skill &skill : *skills)
        m_plan.skills << skill.name;
    if (m_profile->skillsIndexInPrompt)
        m_plan.skillsIndex = agent::skillsIndex(*skills, QStringLiteral("/home/agent"));
    const agent::SessionFileCheck session =
        agent::inspectAgentSession(m_kind, *home, m_plan.sessionId);
    // Dropped meanwhile: nothing more is written.
    if (m_dropped)
        return makeError(QStringLiteral("turns.dropped"), QStringLiteral("the turn is gone"));
    m_plan.takesObservedContext = true;
    return planSessionFile(session);
}

Result<void> PlanWork::planSessionFile(const agent::SessionFileCheck &check)
{
    if (check.state == agent::SessionFileState::Usable)
        return {};
    m_plan.newSession = true;
    if (check.state == agent::SessionFileState::Absent) {
        if (m_switchedAgent)
            return {};
        const auto earlier =
            m_records.hasSessionTurns(m_turn.folder, m_turn.topic, m_turn.turnId, m_kind);
        if (!earlier)
            return earlier.error();
        if (*earlier)
            m_plan.sessionNote = QStringLiteral("the topic's session file %1 is missing; this "
                                                "turn starts a fresh conversation")
                                     .arg(check.file.isEmpty() ? m_plan.sessionId : check.file);
        return {};
    }
    // The damaged file stays as the agent left it; the topic moves on to a
    // new session id, so nothing is overwritten.
    const QString fresh = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_plan.sessionNote = QStringLiteral("the topic's session could not be resumed (%1); this "
                                        "turn starts a fresh conversation as session %2")
                             .arg(check.problem, fresh);
    if (const Result<void> set =
            folders::Topics(m_store, actors::turns)
                .setSessionId(m_turn.folder, m_turn.topic, fresh, check.problem);
        !set)
        return set;
    m_plan.sessionId = fresh;
    return {};
}

Result<void> PlanWork::planModel(ModelProviderRequest model, bool demoPage, QMutex &secretsLock,
                                 const std::unique_ptr<secrets::SecretStore> &secrets)
{
    // The built-in demo's page (demo_site.h) is allowed, with loopback; a
    // script of one's own gets the folder's first allowed host.
    if (demoPage) {
        m_plan.allow << DemoSite::address;
        m_plan.allowLoopback = true;
    } else {
        model.scriptVariables.insert(QStringLiteral("ALLOWED_URL"),
                                     QStringLiteral("http://%1/")
                                         .arg(m_plan.allow.isEmpty() ? QStringLiteral("example.com")
                                                                     : m_plan.allow.first()));
    }
    model.folder = m_turn.folder;
    // The shared secrets are used under their lock; a plan without them
    // opens its own (resolveModelProvider), and may wait on the keyring
    // without holding up every other plan.
    QMutexLocker lock(&secretsLock);
    model.secrets = secrets.get();
    if (!model.secrets)
        lock.unlock();
    // A command turn talks to no model; without a credential its gateway
    // serves the demo script rather than failing the turn.
    auto provider = resolveModelProvider(m_store, model);
    if (!provider && !m_profile) {
        model.choice = ModelProviderChoice::Demo;
        provider = resolveModelProvider(m_store, model);
    }
    if (!provider)
        return provider.error();
    m_plan.model = std::move(*provider);
    return {};
}

// Fail closed: a bound secret that cannot be read is no turn, rather than a
// turn whose tools find no credential, or worse, the value.
Result<void> PlanWork::planBoundSecrets(QMutex &secretsLock,
                                        const std::unique_ptr<secrets::SecretStore> &secrets)
{
    const Result<QList<secrets::SecretBinding>> visible =
        secrets::SecretBindings(m_store, actors::turns).visibleFrom(m_turn.folder);
    if (!visible)
        return visible.error();
    // Most folders see none: the secrets are opened only for a binding.
    if (visible->isEmpty())
        return {};
    QMutexLocker lock(&secretsLock);
    std::unique_ptr<secrets::SecretStore> own;
    secrets::SecretStore *store = secrets.get();
    if (!store) {
        lock.unlock();
        auto opened = secrets::SecretStore::open(m_store, actors::turns);
        if (!opened)
            return opened.error();
        own = std::move(opened).value();
        store = own.get();
    }
    Result<QList<BoundSecret>> bound = resolveBoundSecrets(*visible, *store);
    if (!bound)
        return bound.error();
    m_plan.boundSecrets = std::move(bound).value();
    return {};
}

} // namespace

TurnPlanner::TurnPlanner(TurnEnvironment &environment, QObject *parent)
    : QObject(parent)
    , m_environment(environment)
    , m_secrets(std::make_shared<Secrets>())
{}

TurnPlanner::~TurnPlanner()
{
    // Workers still planning stop before their next write.
    for (const auto &dropped : std::as_const(m_plans))
        *dropped = true;
}

void TurnPlanner::setSecrets(std::unique_ptr<secrets::SecretStore> secrets)
{
    const QMutexLocker lock(&m_secrets->mutex);
    m_secrets->store = std::move(secrets);
}

void TurnPlanner::plan(const PlanRequest &request)
{
    const RunnerSettings &settings = m_environment.settings;
    ModelProviderRequest model;
    model.choice = request.demoModel ? ModelProviderChoice::Demo : settings.modelProvider;
    // The kind's profile says which API it speaks (Codex: OpenAI Responses;
    // Claude Code and pi: Anthropic Messages, as does a command's demo).
    const agent::AgentProfile *profile = agentProfileOf(request.agent);
    model.api = profile && profile->openAiResponses ? gateway::ModelApi::OpenAIResponses
                                                    : gateway::ModelApi::AnthropicMessages;
    model.upstreamUrl = settings.modelUrl;
    model.scriptPath = settings.modelScript;
    model.scriptVariables = {
        {QStringLiteral("DENIED_URL"), QStringLiteral("http://not-on-the-allowlist.example/")},
        {QStringLiteral("FOLDER"), request.folder}};
    // The built-in demo fetches the engine's demo page, which only its
    // proxy may reach, and a host nobody allows. The page listens on this
    // thread, so it is started here.
    const bool demoPage =
        model.choice == ModelProviderChoice::Demo && model.scriptPath.isEmpty() && profile;
    if (demoPage) {
        if (!m_environment.demoSite)
            m_environment.demoSite = std::make_unique<DemoSite>();
        const Result<QString> page = m_environment.demoSite->url();
        if (!page) {
            QMetaObject::invokeMethod(
                this,
                [this, id = request.turnId, error = page.error()] { emit planned(id, error); },
                Qt::QueuedConnection);
            return;
        }
        model.scriptVariables.insert(QStringLiteral("ALLOWED_URL"), *page);
    }
    auto dropped = std::make_shared<std::atomic<bool>>(false);
    m_plans.insert(request.turnId, dropped);
    runOnWorkerMoving(
        m_environment.workers, this,
        [&store = m_environment.store, secrets = m_secrets, request, dropped, demoPage,
         model = std::move(model)]() mutable {
            PlanWork work(store, request, *dropped);
            return work.run(std::move(model), demoPage, secrets->mutex, secrets->store);
        },
        [this, id = request.turnId, dropped](const Result<TurnPlan> &plan) {
            const auto planning = m_plans.constFind(id);
            // Dropped: the turn was cancelled or released meanwhile.
            if (planning == m_plans.cend() || *planning != dropped)
                return;
            m_plans.erase(planning);
            emit planned(id, plan);
        });
}

Result<TurnPlan> TurnPlanner::takeObservedContext(const QString &folder, const QString &topic,
                                                  Result<TurnPlan> plan)
{
    if (!plan || !plan->takesObservedContext)
        return plan;
    const auto observed = tools::takeObservedContext(m_environment.store, folder, topic);
    if (!observed)
        return observed.error();
    plan->observedContext = *observed;
    return plan;
}

void TurnPlanner::drop(const QString &turnId)
{
    if (const auto dropped = m_plans.take(turnId))
        *dropped = true;
}

} // namespace arizuko::turns
