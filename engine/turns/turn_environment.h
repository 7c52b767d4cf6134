#pragma once

// What every turn of one runner shares: the store, the libvirt connection
// (its lifetime bounds every VM, see libvirt/connection.h), the settings and
// the accelerator decided at start.

#include "gateway/model_gateway.h"
#include "host/host_status.h"
#include "libvirt/connection.h"
#include "libvirt/subnet_pool.h"
#include "policy/network_rule.h"
#include "turn_records/turn_records.h"
#include "turns/agent_gate.h"
#include "turns/demo_site.h"
#include "turns/guest_machine.h"
#include "turns/runner_settings.h"
#include "turns/turn_home.h"
#include "turns/turn_request.h"

#include <QList>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace arizuko::store {
class Store;
}

namespace arizuko::turns {

class EgressQuestions;

struct TurnEnvironment
{
    store::Store &store;
    TurnRecords &records;
    std::shared_ptr<libvirt::Connection> connection{};
    // This engine's mark ("pid:starttime") for the objects it creates.
    QString owner;
    RunnerSettings settings;
    libvirt::SubnetPool pool;
    host::AcceleratorChoice accelerator{};
    // The /30s of this runner's live turns, whose networks may not be routed yet.
    std::function<QList<libvirt::Ipv4Range>()> subnetsInUse{};
    // Where libvirt calls block: a pool of the runner's own, because they
    // wait rather than compute, and must not queue behind (or starve) the
    // application's global pool on a two-core machine.
    QThreadPool *workers = nullptr;
    // Queues a turn a tool asked for (delegate_group, escalate_group); its name.
    std::function<Result<QString>(const TurnRequest &request)> submit{};
    // Makes each turn's and spare's VM.
    GuestMachineFactory makeMachine{};
    // The page demo turns fetch, made for the first of them.
    std::unique_ptr<DemoSite> demoSite{};
    // What holds a turn's agent until the home history's snapshot before.
    AgentGate agentGate{};
    // The engine's open egress questions (the runner's); none: every
    // question is denied.
    EgressQuestions *questions = nullptr;
};

// What the runner resolved for one turn before it starts.
struct TurnPlan
{
    TurnHome home;
    QString sessionId;
    // The topic's first turn (or one after its session file was lost)
    // starts the session; later turns resume it.
    bool newSession = false;
    // Why the turn starts a fresh session although the topic had one.
    QString sessionNote;
    // What observed folders posted since the topic's last turn, put before
    // the prompt (observe_group): taken only once the turn surely starts
    // (TurnPlanner::takeObservedContext), when takesObservedContext.
    bool takesObservedContext = false;
    QString observedContext;
    // The folder's checked skills (skills/<name>/SKILL.md in its home).
    QStringList skills;
    // Their index for the prompt of an agent that does not load them itself.
    QString skillsIndex;
    gateway::ProviderSettings model;
    QStringList allow;
    QStringList deny;
    bool allowAll = false;
    // The whole resolved policy, whose rules the egress ledger names.
    policy::NetworkPolicy network;
    // Only a turn of the built-in demo: its proxy reaches loopback, for
    // the demo page (demo_site.h).
    bool allowLoopback = false;
    // The folder's setting for hosts on no allow entry.
    UnlistedHostsPolicy unlisted;
    // The secrets bound to hosts that the folder sees, with their values
    // and this turn's placeholders (bound_secrets.h).
    QList<BoundSecret> boundSecrets;
};

} // namespace arizuko::turns
