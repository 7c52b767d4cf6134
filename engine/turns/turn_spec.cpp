#include "turns/turn_spec.h"

#include <QJsonDocument>
#include <unistd.h>

namespace arizuko::turns {

namespace {

// What a `turn` and a `prestart` line share: who the agent runs as, and
// where it finds the network, the proxy and the gateway.
QJsonObject placeMembers(const QString &type, const TurnSpecPlace &place)
{
    const QString host = place.subnet.hostAddress();
    return {
        {QStringLiteral("type"), type},
        {QStringLiteral("version"), 1},
        {QStringLiteral("folder"), place.folder},
        {QStringLiteral("proxy_url"),
         QStringLiteral("http://%1:%2").arg(host).arg(place.proxyPort)},
        {QStringLiteral("gateway_url"),
         QStringLiteral("http://%1:%2").arg(host).arg(place.gatewayPort)},
        {QStringLiteral("gateway_token"), QString::fromLatin1(place.gatewayToken)},
        // The agent runs as the desktop user, so what it writes into the
        // 9p home belongs to that user on the host (root when the engine
        // runs as root: the VM, not the uid, is the confinement).
        {QStringLiteral("uid"), qint64(::getuid())},
        {QStringLiteral("gid"), qint64(::getgid())},
        {QStringLiteral("network"),
         QJsonObject{{QStringLiteral("address"), QStringLiteral("%1/%2")
                                                     .arg(place.subnet.guestAddress())
                                                     .arg(libvirt::TurnSubnet::prefixLength)},
                     {QStringLiteral("gateway"), host}}},
    };
}

QJsonObject merged(QJsonObject members, const QJsonObject &more)
{
    for (auto member = more.begin(); member != more.end(); ++member)
        members.insert(member.key(), member.value());
    return members;
}

} // namespace

QByteArray turnSpecLine(QJsonObject agentMembers, const TurnSpecPlace &place)
{
    agentMembers.insert(QStringLiteral("turn_id"), place.turnId);
    agentMembers.insert(QStringLiteral("topic"), place.topic);
    agentMembers.insert(QStringLiteral("skills"), place.skills);
    agentMembers.insert(QStringLiteral("timeout_seconds"), place.timeoutSeconds);
    agentMembers.insert(QStringLiteral("env"), place.environment);
    if (place.prestarted)
        agentMembers.insert(QStringLiteral("prestarted"), true);
    if (!place.inspectionCa.isEmpty())
        agentMembers.insert(QStringLiteral("inspect_ca"), QString::fromLatin1(place.inspectionCa));
    return QJsonDocument(
               merged(std::move(agentMembers), placeMembers(QStringLiteral("turn"), place)))
               .toJson(QJsonDocument::Compact) +
           '\n';
}

QJsonObject prestartMessage(const PrestartedAgent &agent, const TurnSpecPlace &place)
{
    return merged({{QStringLiteral("agent"), agentKindName(agent.agent)},
                   {QStringLiteral("session_id"), agent.sessionId},
                   {QStringLiteral("model"), agent.model}},
                  placeMembers(QStringLiteral("prestart"), place));
}

} // namespace arizuko::turns
