#include "turns/prestart_decision.h"

#include "agent/agent_profile.h"
#include "agent/start_configuration.h"
#include "core/actors.h"
#include "folders/topics.h"
#include "store/store.h"

#include <QUuid>

namespace arizuko::turns {
namespace {

// The agent as a sentence names it.
QString agentTitle(AgentKind kind)
{
    const agent::AgentProfile *profile = agentProfileOf(kind);
    return profile ? QString(profile->title) : QStringLiteral("a command");
}

} // namespace

std::optional<PrestartedAgent> PrestartDecision::agentFor(const QString &folder) const
{
    if (!m_environment.settings.prestartAgent)
        return std::nullopt;
    // The folder's next turn is likeliest of the agent its last one ran (a
    // new folder's, of the composer's first choice); a command is not
    // started ahead.
    const Result<QString> last = m_environment.records.lastAgent(folder);
    std::optional<AgentKind> kind = defaultAgentKind();
    if (last && !last->isEmpty())
        kind = agentKindFromName(*last);
    if (!kind || !agentProfileOf(*kind))
        return std::nullopt;
    return PrestartedAgent{*kind, m_environment.settings.model,
                           QUuid::createUuid().toString(QUuid::WithoutBraces)};
}

QString PrestartDecision::refusal(const PrestartedAgent &agent, const PrestartTurn &turn,
                                  TurnPlan &plan, bool shellEnvironment) const
{
    QString refused = refusalOf(agent, turn, plan);
    if (refused.isEmpty() && shellEnvironment)
        refused = shellEnvironmentRefusal();
    if (!refused.isEmpty())
        return refused;
    // The started agent's session is the topic's from now on.
    if (const Result<void> set =
            folders::Topics(m_environment.store, actors::turns)
                .setSessionId(turn.folder, turn.topic, agent.sessionId,
                              QStringLiteral("the spare's started agent answers"));
        !set)
        return set.error().message;
    plan.sessionId = agent.sessionId;
    return {};
}

QString PrestartDecision::shellEnvironmentRefusal()
{
    return QStringLiteral("the folder grants shell:env secrets, which the agent takes only at its "
                          "start");
}

QString PrestartDecision::refusalOf(const PrestartedAgent &agent, const PrestartTurn &turn,
                                    const TurnPlan &plan) const
{
    if (turn.agent != agent.agent)
        return QStringLiteral("the spare started %1, the turn runs %2")
            .arg(agentTitle(agent.agent), agentTitle(turn.agent));
    // The agent reads all of these only at its start.
    if (!plan.newSession)
        return QStringLiteral("the topic resumes its session");
    if (!plan.sessionNote.isEmpty())
        return QStringLiteral("the topic's session was lost");
    if (!plan.skills.isEmpty())
        return QStringLiteral("the folder has skills");
    if (turn.model != agent.model)
        return QStringLiteral("the model changed since the spare was made");
    const auto home =
        agent::HomeDirectory::open(m_environment.store.dataDir(), {plan.home.id, plan.home.path});
    if (!home)
        return home.error().message;
    const QStringList read = agent::startConfiguration(agentKindName(agent.agent), *home);
    if (!read.isEmpty())
        return QStringLiteral("the home holds %1, which %2 reads only at its start")
            .arg(read.join(QStringLiteral(", ")), agentTitle(agent.agent));
    return {};
}

} // namespace arizuko::turns
