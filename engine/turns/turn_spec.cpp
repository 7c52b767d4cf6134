#include "turns/turn_spec.h"

#include <QJsonDocument>
#include <unistd.h>

namespace arizuko::turns {

QByteArray turnSpecLine(QJsonObject agentMembers, const TurnSpecPlace &place)
{
    const QString host = place.subnet.hostAddress();
    const QJsonObject turn{
        {QStringLiteral("type"), QStringLiteral("turn")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("turn_id"), place.turnId},
        {QStringLiteral("folder"), place.folder},
        {QStringLiteral("topic"), place.topic},
        {QStringLiteral("proxy_url"),
         QStringLiteral("http://%1:%2").arg(host).arg(place.proxyPort)},
        {QStringLiteral("gateway_url"),
         QStringLiteral("http://%1:%2").arg(host).arg(place.gatewayPort)},
        {QStringLiteral("gateway_token"), QString::fromLatin1(place.gatewayToken)},
        {QStringLiteral("skills"), place.skills},
        {QStringLiteral("timeout_seconds"), place.timeoutSeconds},
        // The agent runs as the desktop user, so what it writes into the
        // 9p home belongs to that user on the host (root when the engine
        // runs as root: the VM, not the uid, is the confinement).
        {QStringLiteral("uid"), qint64(::getuid())},
        {QStringLiteral("gid"), qint64(::getgid())},
        {QStringLiteral("env"), place.environment},
        {QStringLiteral("network"),
         QJsonObject{{QStringLiteral("address"), QStringLiteral("%1/%2")
                                                     .arg(place.subnet.guestAddress())
                                                     .arg(libvirt::TurnSubnet::prefixLength)},
                     {QStringLiteral("gateway"), host}}},
    };
    for (auto member = turn.begin(); member != turn.end(); ++member)
        agentMembers.insert(member.key(), member.value());
    return QJsonDocument(agentMembers).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace arizuko::turns
