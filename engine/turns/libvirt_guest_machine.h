#pragma once

// The guest machine (guest_machine.h) as libvirt makes it: a transient
// isolated network, an egress proxy on its host side, the `arizuko-turn`
// nwfilter (bound by libvirt with the NIC in classic mode, on the engine's
// tap in pretap mode), a transient autodestroy domain and its guest
// channel. Every blocking call runs on the runner's workers.

#include "libvirt/turn_domain.h"
#include "turns/guest_machine.h"
#include "turns/turn_environment.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QTemporaryDir>
#include <memory>

namespace arizuko::turns {

class EgressProxy;
class GuestChannel;

class LibvirtGuestMachine final : public GuestMachine
{
    Q_OBJECT

public:
    LibvirtGuestMachine(TurnEnvironment &environment, GuestMachineSpec spec,
                        QObject *parent = nullptr);
    // Whatever is still there is destroyed before this returns.
    ~LibvirtGuestMachine() override;

    QString name() const override { return m_spec.name; }
    std::optional<libvirt::TurnSubnet> subnet() const override;
    qint64 proxyPid() const override;
    quint16 proxyPort() const override;
    bool proxyRunning() const override;
    QString consoleLogPath() const override;
    QByteArray inspectionCertificate() const override { return m_inspectionCertificate; }
    QJsonObject timings() const override { return m_timings; }

    void start() override;
    void sendSpec(const QByteArray &line) override;
    void send(const QJsonObject &message) override;
    void answerQuestion(quint64 id, const QString &answer, const QString &reason) override;
    void recheck() override;
    void stop() override;
    GuestTeardown stopAndWait() override;

private:
    // How far each part is; the machine is ready when all three are made.
    enum class Part
    {
        Missing,
        Making,
        Made
    };
    struct Made;
    struct Teardown;

    Result<void> prepare();
    void createNetwork();
    void onNetworkCreated();
    void startProxy();
    // The turn's CA for its spec's rules: keeps the certificate, returns the
    // pipe holding certificate and key for the proxy.
    Result<posix::UniqueFd> inspectionAuthority();
    void onProxyHealthy();
    void createDomain();
    void onDomainCreated();
    // Pretap mode: the tap onto the bridge, the binding, the guest's tracked
    // connections forgotten, the rules read back; only the last with `again`.
    void bindFilter(bool again);
    void onFilterBound();
    void openChannel();
    void becomeReadyWhenAllMade();
    void fail(const Error &error);
    void record(const QString &step, const QJsonValue &ms);
    bool isEnding() const;
    std::shared_ptr<Teardown> beginTeardown();

    TurnEnvironment &m_environment;
    GuestMachineSpec m_spec;
    std::shared_ptr<libvirt::Connection> m_connection;
    libvirt::TurnDomainSpec m_domainSpec;
    std::shared_ptr<Made> m_made; // shared with the workers
    QFuture<void> m_networkFuture;
    QFuture<void> m_domainFuture;
    QFuture<void> m_filterFuture;
    QFuture<void> m_teardownFuture;
    std::shared_ptr<Teardown> m_teardown;
    std::unique_ptr<libvirt::TurnNetwork> m_network;
    std::unique_ptr<libvirt::TurnDomain> m_domain;
    std::unique_ptr<EgressProxy> m_proxy;
    QByteArray m_inspectionCertificate;
    std::unique_ptr<GuestChannel> m_channel;
    std::unique_ptr<QTemporaryDir> m_socketDirectory;
    std::optional<libvirt::TurnSubnet> m_subnet;
    QString m_tap;                    // Pretap mode: the tap (and binding) the engine makes
    Part m_proxyPart = Part::Missing; // made: healthy
    Part m_domainPart = Part::Missing;
    Part m_filterPart = Part::Missing; // made: its rules seen in force
    QElapsedTimer m_networkTime;
    QElapsedTimer m_proxyTime;
    QElapsedTimer m_domainTime;
    QJsonObject m_timings;
    GuestTeardown m_report;
};

} // namespace arizuko::turns
