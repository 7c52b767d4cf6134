#pragma once

// One guest VM and everything it stands on: its network, its egress proxy,
// its filter, its domain, its guest channel, and the teardown that removes
// them all. A turn owns one; a spare (spare_pool.h) is one booted ahead of
// its turn. The libvirt implementation is libvirt_guest_machine.h; tests
// drive a turn with a fake.

#include "core/result.h"
#include "libvirt/turn_network.h"
#include "turns/bound_secrets.h"
#include "turns/turn_home.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace arizuko::turns {

// What a folder's proxy does with a host on no allow entry
// (folders/network_settings.h): deny it, or hold the request and ask.
struct UnlistedHostsPolicy
{
    bool ask = false;
    std::chrono::seconds timeout{60};

    bool operator==(const UnlistedHostsPolicy &) const = default;
};

// What a machine is made with, fixed at its start: where it lives, the
// home it shares and its proxy's lists.
struct GuestMachineSpec
{
    QString name; // az-<8 hex digits>: the VM's, network's, tap's and proxy's name
    TurnHome home;
    // Where its console log goes (the turn's or the spare's directory).
    QString directory;
    QStringList allow;
    QStringList deny;
    bool allowAll = false;
    bool allowLoopback = false;
    // Hosts on no allow entry are asked about, not denied at once.
    UnlistedHostsPolicy unlisted;
    // The folder, named in the proxy's denials (how the user can allow a host).
    QString folder;
    // How long the guest waits for its spec (0: the guest's default).
    int specTimeoutSeconds = 0;
    // Rules by method and path and the hosts to inspect
    // (policy/request_rule.h: proxyInspection): with any inspected host, the
    // machine makes the turn's CA for inspectedHosts, valid until
    // inspectUntil, and hands its key to the proxy alone.
    QStringList rules;
    QStringList inspectedHosts;
    QDateTime inspectUntil;
    // The turn's bound secrets: their bindings, values and placeholders go
    // to the proxy alone, on its kSecretsFd.
    QList<BoundSecret> boundSecrets;
};

// What tearing the machine down found: its steps' times and what could not
// be destroyed (the rest goes anyway).
struct GuestTeardown
{
    QJsonObject parts;
    QStringList errors;
    qint64 ms = 0;
};

class GuestMachine : public QObject
{
    Q_OBJECT

public:
    // Where the machine is. Preparing: its network and proxy are being made.
    // Booting: its domain is being made (beside them in pretap mode) or its
    // filter bound or read back. Ready: the guest is up, the proxy healthy
    // and the filter's rules seen in force, so the spec may go. Running:
    // the spec went. Failed: failed() told why; only stop() is left.
    enum class State
    {
        Idle,
        Preparing,
        Booting,
        Ready,
        Running,
        Failed,
        Stopping,
        Stopped
    };
    Q_ENUM(State)

    using QObject::QObject;

    State state() const { return m_state; }
    virtual QString name() const = 0;
    // Known from networkReady() on.
    virtual std::optional<libvirt::TurnSubnet> subnet() const = 0;
    // Known from proxyStarted() on, the port from proxyHealthy() on.
    virtual qint64 proxyPid() const = 0;
    virtual quint16 proxyPort() const = 0;
    virtual bool proxyRunning() const = 0;
    virtual QString consoleLogPath() const = 0;
    // The turn's CA certificate (PEM) its proxy inspects with, known from
    // proxyStarted() on; empty when the spec has no rules.
    virtual QByteArray inspectionCertificate() const { return {}; }
    // What making it took so far, step by step (a spare's `made`).
    virtual QJsonObject timings() const = 0;

    // Idle -> Preparing: makes everything; ends in ready() or failed().
    virtual void start() = 0;
    // Ready -> Running: the turn spec, which starts the agent.
    virtual void sendSpec(const QByteArray &line) = 0;
    // One protocol line to the guest (ack, cancel).
    virtual void send(const QJsonObject &message) = 0;
    // Answers a question of its proxy (networkQuestion): once, turn or
    // deny with a reason.
    virtual void answerQuestion(quint64 id, const QString &answer, const QString &reason) = 0;
    // Warm start: a machine that was ready a while ago reads its filter's
    // rules back again; ready() once more when they hold.
    virtual void recheck() = 0;
    // Destroys everything on a worker (waiting for creations in flight);
    // stopped() at the end. Harmless twice.
    virtual void stop() = 0;
    // The same, blocking: for a destructor, since no VM may outlive the engine.
    virtual GuestTeardown stopAndWait() = 0;

signals:
    void stateChanged(arizuko::turns::GuestMachine::State state);
    // The network is there: what listens on its host side may start.
    void networkReady();
    void proxyStarted();
    void proxyHealthy();
    // The domain's creation has started.
    void booting();
    void domainCreated();
    // The spec may go now.
    void ready();
    // How long one of its steps took (`ms` a number, or an object of parts).
    void timing(const QString &step, const QJsonValue &ms);
    void guestMessage(const QJsonObject &message);
    void guestViolation(const QString &why);
    // The guest's channel closed: the VM stopped.
    void guestClosed();
    void networkDecision(const QJsonObject &decision);
    // Its proxy holds a request to a host on no allow entry (an `ask` line).
    void networkQuestion(const QJsonObject &question);
    void failed(const arizuko::Error &error);
    void stopped(const arizuko::turns::GuestTeardown &teardown);

protected:
    void setState(State state)
    {
        if (m_state == state)
            return;
        m_state = state;
        emit stateChanged(state);
    }

private:
    State m_state = State::Idle;
};

// Makes the machine a turn or a spare runs in (the runner's: libvirt's;
// tests': a fake).
using GuestMachineFactory = std::function<std::unique_ptr<GuestMachine>(GuestMachineSpec spec)>;

} // namespace arizuko::turns
