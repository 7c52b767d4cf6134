#pragma once

// Warm start: a guest booted ahead of its prompt. The spare has its
// network, its proxy with the folder's network policy, its filter bound and
// verified, and its VM booted to the point where the guest waits for a turn
// spec (it has touched nothing of the folder yet). A turn of the same
// folder adopts it when the turn's plan is what the spare was made with, so
// submit -> agent running is only the spec's hand-off; otherwise the spare
// is torn down and the turn starts cold. docs/turns.md, "Warm start".

#include "libvirt/subnet_pool.h"
#include "libvirt/turn_filter.h"
#include "turns/turn_environment.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>
#include <optional>

namespace arizuko::libvirt {
class TurnDomain;
class TurnNetwork;
} // namespace arizuko::libvirt

namespace arizuko::turns {

class EgressProxy;
class GuestChannel;

// Everything of a turn's plan that is fixed in a spare when it is made: the
// proxy's lists and the home the domain shares, known by its folder's home
// id and the directory's identity, never by a path that a folder of the
// same name could take over. What else a turn needs (the
// prompt, session, model and its secret, grants for tools) goes with the
// spec or is decided on the host while the turn runs.
struct SpareBasis
{
    QString folder;
    TurnHome home;
    QStringList allow;
    QStringList deny;
    bool allowAll = false;
    bool allowLoopback = false; // a demo turn's (TurnPlan)

    static SpareBasis of(const QString &folder, const TurnPlan &plan);
    // What differs from `now` (a sentence for the turn's `spare` event),
    // empty when nothing does.
    QString differenceFrom(const SpareBasis &now) const;
};

// What an adopting turn takes over.
struct SpareParts
{
    QString name; // az-<8 hex digits>: the VM's, network's, tap's and proxy's name
    std::unique_ptr<libvirt::TurnNetwork> network;
    std::unique_ptr<libvirt::TurnDomain> domain;
    std::unique_ptr<EgressProxy> proxy;
    std::unique_ptr<GuestChannel> channel;
    std::unique_ptr<QTemporaryDir> socketDirectory;
    QString tap; // Pretap mode
    libvirt::TurnDomainSpec spec; // the VM as made; its filter, what the binding was made with
    QString consoleLogPath;
    // What the guest sent before any turn existed (its `booted` status).
    QList<QJsonObject> guestMessages;
    qint64 ageMs = 0;
    QJsonObject timings; // how long making it took, step by step
};

class SpareGuest final : public QObject
{
    Q_OBJECT

public:
    SpareGuest(TurnEnvironment &environment, SpareBasis basis, QObject *parent = nullptr);
    // Whatever is still there is destroyed before this returns.
    ~SpareGuest() override;

    void start();
    QString name() const { return m_name; }
    const SpareBasis &basis() const { return m_basis; }
    bool isReady() const { return m_ready; }
    std::optional<libvirt::Ipv4Range> subnet() const { return m_subnet; }
    // False once libvirtd closed the connection the spare was made on (a
    // restart): what it holds is then not to be trusted.
    bool connectionAlive() const { return m_connection && m_connection->isAlive(); }

    // Only when ready: hands every resource to the adopting turn; the
    // spare holds nothing afterwards.
    SpareParts adopt();
    // Destroys everything on a worker (waiting for creations in flight);
    // released() when done.
    void discard();

signals:
    // The guest is booted behind its verified filter and waits for a spec.
    void ready();
    // Making it failed, or its guest or proxy ended, or it grew too old.
    void lost(const QString &why);
    void released();

private:
    struct Making;
    void onNetworkCreated();
    void startProxy();
    void createDomain();
    void onDomainCreated();
    void fail(const QString &why);

    TurnEnvironment &m_environment;
    SpareBasis m_basis;
    QString m_name;
    QString m_consoleLogPath;
    std::shared_ptr<Making> m_making; // shared with the workers
    std::shared_ptr<libvirt::Connection> m_connection;
    libvirt::TurnDomainSpec m_spec;
    QFutureWatcher<void> m_networkWatcher;
    QFutureWatcher<void> m_domainWatcher;
    QFutureWatcher<void> m_teardownWatcher;
    std::unique_ptr<libvirt::TurnNetwork> m_network;
    std::unique_ptr<libvirt::TurnDomain> m_domain;
    std::unique_ptr<EgressProxy> m_proxy;
    std::unique_ptr<GuestChannel> m_channel;
    std::unique_ptr<QTemporaryDir> m_socketDirectory;
    std::optional<libvirt::Ipv4Range> m_subnet;
    QString m_tap;
    QList<QJsonObject> m_guestMessages;
    QJsonObject m_timings;
    QElapsedTimer m_age;
    QElapsedTimer m_step;
    QTimer m_maxAge;
    bool m_ready = false;
    bool m_gone = false; // adopted or discarded
};

} // namespace arizuko::turns
