#pragma once

// The turn spec, the one line that starts the agent in the guest
// (docs/guest.md): the agent's own members (agent_session.h) and where the
// guest finds its network, proxy and gateway.

#include "libvirt/subnet_pool.h"
#include "turns/turn_request.h"

#include <QByteArray>
#include <QJsonObject>

namespace arizuko::turns {

struct TurnSpecPlace
{
    QString turnId;
    QString folder;
    QString topic;
    libvirt::TurnSubnet subnet;
    quint16 proxyPort = 0;
    quint16 gatewayPort = 0;
    QByteArray gatewayToken;
    bool skills = false;
    qint64 timeoutSeconds = 1;
    // Secrets the folder's shell:env:<KEY> grants put into the agent's
    // environment (docs/tools.md); read when the spec goes out.
    QJsonObject environment;
    // The turn uses the agent its spare started before the prompt.
    bool prestarted = false;
    // The turn's CA certificate (PEM), when its proxy inspects hosts: the
    // guest trusts it (docs/guest.md, "inspect_ca"). Never its key.
    QByteArray inspectionCa;
};

QByteArray turnSpecLine(QJsonObject agentMembers, const TurnSpecPlace &place);

// The fixed part of an agent a warm-start spare starts before its prompt
// (docs/turns.md, "A warm turn whose agent is already started").
struct PrestartedAgent
{
    AgentKind agent = defaultAgentKind();
    QString model;                       // its --model; empty: its own default
    QString sessionId;                   // the new session it starts
};

// The `prestart` message (docs/guest.md): the agent and where it reaches
// its proxy and gateway; `place`'s turn-only members (turn id, topic,
// skills, deadline, secrets) are not sent.
QJsonObject prestartMessage(const PrestartedAgent &agent, const TurnSpecPlace &place);

} // namespace arizuko::turns
