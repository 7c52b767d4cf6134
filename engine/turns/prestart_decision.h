#pragma once

// Warm start's one decision about a started agent (docs/turns.md, "A warm
// turn whose agent is already started"): which agent a folder's spare
// starts ahead of its prompt, and whether the turn that adopts the spare
// may hand its prompt to that agent or must let its guest launch one as a
// cold turn does. Owned by the SparePool.

#include "turns/turn_environment.h"
#include "turns/turn_request.h"
#include "turns/turn_spec.h"

#include <QString>
#include <optional>

namespace arizuko::turns {

// What the decision needs of the adopting turn.
struct PrestartTurn
{
    QString folder;
    QString topic;
    AgentKind agent = defaultAgentKind();
    QString model; // the turn's --model: its request's, else the setting's
};

class PrestartDecision
{
public:
    explicit PrestartDecision(TurnEnvironment &environment)
        : m_environment(environment)
    {}

    // The agent a spare of `folder` starts ahead of its prompt: the one the
    // folder's latest turn ran (Claude Code for a folder without turns),
    // none after a command turn or with the setting off.
    std::optional<PrestartedAgent> agentFor(const QString &folder) const;
    // Why `turn` cannot use `agent` (empty: it can; the topic's session is
    // then the agent's, in the store and in `plan`). `shellEnvironment`:
    // the folder grants shell:env secrets.
    QString refusal(const PrestartedAgent &agent, const PrestartTurn &turn, TurnPlan &plan,
                    bool shellEnvironment) const;
    // A shell:env grant: refused here, and again when one is granted
    // between the adoption and the spec.
    static QString shellEnvironmentRefusal();

private:
    // The agent's start configuration and the turn's plan.
    QString refusalOf(const PrestartedAgent &agent, const PrestartTurn &turn,
                      const TurnPlan &plan) const;

    TurnEnvironment &m_environment;
};

} // namespace arizuko::turns
