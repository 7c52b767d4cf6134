#pragma once

// Plans a queued turn off the runner's thread: what the store says (the
// folder's home, its network policy, the topic and its session), what the
// home holds (skills, the session file: up to 256 MiB, Codex's session
// tree) and the model provider (whose secrets may wait on an OS keyring),
// all on a worker; planned() then reports on the planner's thread. A plan
// dropped meanwhile (its turn cancelled) is never reported; what it would
// take (the observed folders' messages) is taken only by
// takeObservedContext(), once the turn surely starts.

#include "core/result.h"
#include "turns/turn_environment.h"
#include "turns/turn_request.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <atomic>
#include <memory>

namespace arizuko::secrets {
class SecretStore;
}

namespace arizuko::turns {

// What a plan needs of its turn, copied: the worker never touches a Turn.
struct PlanRequest
{
    QString turnId;
    QString folder;
    QString topic;
    AgentKind agent = defaultAgentKind();
    bool demoModel = false;
};

class TurnPlanner final : public QObject
{
    Q_OBJECT

public:
    explicit TurnPlanner(TurnEnvironment &environment, QObject *parent = nullptr);
    ~TurnPlanner() override;

    // The secrets opened at the runner's start-up (host_startup.h); null:
    // each plan opens them itself and reports why they do not open.
    void setSecrets(std::unique_ptr<secrets::SecretStore> secrets);
    // Plans the turn on the environment's workers; planned() follows.
    void plan(const PlanRequest &request);
    // Forgets the turn's plan: planned() will not come for it.
    void drop(const QString &turnId);
    bool isPlanning(const QString &turnId) const { return m_plans.contains(turnId); }
    // The plan's last step, on the caller's thread once its turn surely
    // starts (still queued when planned() came): what observed folders
    // posted, taken from the store for the prompt. A turn cancelled while
    // it was planned leaves it for the topic's next turn.
    Result<TurnPlan> takeObservedContext(const QString &folder, const QString &topic,
                                         Result<TurnPlan> plan);

signals:
    void planned(const QString &turnId, const arizuko::Result<arizuko::turns::TurnPlan> &plan);

private:
    struct Secrets
    {
        QMutex mutex; // a SecretStore reloads its key ring as it goes
        std::unique_ptr<secrets::SecretStore> store;
    };

    TurnEnvironment &m_environment;
    std::shared_ptr<Secrets> m_secrets;
    // The plans under way, by turn id; set when dropped.
    QHash<QString, std::shared_ptr<std::atomic<bool>>> m_plans;
};

} // namespace arizuko::turns
