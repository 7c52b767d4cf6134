// Turn's warm start: the turn takes over a spare guest (spare_guest.h)
// instead of preparing and booting its own. Kept apart from turn.cpp, whose
// cold path it shares from the gateway on.

#include "turns/turn.h"

#include "gateway/model_gateway.h"
#include "libvirt/turn_domain.h"
#include "libvirt/turn_network.h"
#include "store/store.h"
#include "turns/egress_proxy.h"
#include "turns/guest_channel.h"

#include <QDir>
#include <QFile>

namespace arizuko::turns {

void Turn::recordSpareSkipped(const QString &spare, const QString &why)
{
    recordEvent(QStringLiteral("spare"), QJsonObject{{QStringLiteral("adopted"), false},
                                                     {QStringLiteral("spare"), spare},
                                                     {QStringLiteral("reason"), why}});
}

void Turn::startWarm(const TurnPlan &plan, SpareParts spare)
{
    m_plan = plan;
    armDeadline();
    enter(TurnState::Preparing);
    recordEvent(QStringLiteral("spare"), QJsonObject{{QStringLiteral("adopted"), true},
                                                     {QStringLiteral("spare"), spare.name},
                                                     {QStringLiteral("age_ms"), spare.ageMs},
                                                     {QStringLiteral("made"), spare.timings}});
    // Everything the spare made is the turn's now, and goes with its teardown.
    m_spareName = spare.name;
    m_network = std::move(spare.network);
    m_domain = std::move(spare.domain);
    m_proxy = std::move(spare.proxy);
    m_channel = std::move(spare.channel);
    m_socketDirectory = std::move(spare.socketDirectory);
    m_tap = spare.tap;
    m_domainSpec = spare.spec;
    m_subnet = m_network->subnet().range;
    // For a warm turn the "spec" timing counts from the adoption.
    m_creationTime.start();

    // The console log stays where the spare's guest writes it; the turn's
    // directory links to it, where every message points.
    const QString directory =
        QDir(m_environment.store.dataDir()).filePath(QStringLiteral("turns/") + id());
    QDir().mkpath(directory);
    QFile::link(spare.consoleLogPath, QDir(directory).filePath(QStringLiteral("console.log")));
    (void)m_environment.records.update(id(),
                                       {{QStringLiteral("subnet"), m_network->subnet().range.cidr()},
                                        {QStringLiteral("network_name"), m_spareName},
                                        {QStringLiteral("proxy_pid"), m_proxy->pid()},
                                        {QStringLiteral("proxy_address"),
                                         QStringLiteral("%1:%2")
                                             .arg(m_network->subnet().hostAddress())
                                             .arg(m_proxy->port())}});
    connectProxy();
    if (const Result<void> gateway = startGateway(); !gateway) {
        finish(TurnState::Failed, gateway.error());
        return;
    }
    recordPlanNotes();
    enter(TurnState::Booting);
    connectGuest();
    // The proxy may have ended, or the guest stopped, between the spare's
    // last look and now; the turn's own handlers are connected from here.
    if (!m_proxy->isRunning()) {
        finish(TurnState::Failed,
               makeError(QStringLiteral("turns.proxy-died"),
                         QStringLiteral("the spare's proxy had ended; nothing leaves the VM "
                                        "without it")));
        return;
    }
    for (const QJsonObject &message : spare.guestMessages)
        onGuestMessage(message);
    checkFilterThenSendSpec();
}

} // namespace arizuko::turns
