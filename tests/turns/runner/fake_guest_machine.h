#pragma once

// A guest machine without a VM: the test moves it through its states and
// sees what the turn asked of it (the spec, the lines sent, the stop).

#include "turns/guest_machine.h"
#include "turns/turn_environment.h"

#include <QJsonDocument>

namespace arizuko::turns {

class FakeGuestMachine final : public GuestMachine
{
    Q_OBJECT

public:
    explicit FakeGuestMachine(GuestMachineSpec spec)
        : m_spec(std::move(spec))
    {}
    ~FakeGuestMachine() override { ++destroyed(); }

    // How many fakes were destroyed (shared by every test).
    static int &destroyed()
    {
        static int count = 0;
        return count;
    }

    QString name() const override { return m_spec.name; }
    std::optional<libvirt::TurnSubnet> subnet() const override { return m_subnet; }
    qint64 proxyPid() const override { return m_subnet ? 4242 : 0; }
    quint16 proxyPort() const override { return 3128; }
    bool proxyRunning() const override { return m_subnet.has_value(); }
    QString consoleLogPath() const override
    {
        return m_spec.directory + QStringLiteral("/console.log");
    }
    QJsonObject timings() const override { return {{QStringLiteral("network"), 1}}; }

    void start() override { setState(State::Preparing); }
    void sendSpec(const QByteArray &line) override
    {
        specs << QJsonDocument::fromJson(line).object();
        setState(State::Running);
    }
    void send(const QJsonObject &message) override { sent << message; }
    void answerQuestion(quint64 id, const QString &answer, const QString &reason) override
    {
        answers << QJsonObject{{QStringLiteral("id"), qint64(id)},
                               {QStringLiteral("answer"), answer},
                               {QStringLiteral("reason"), reason}};
    }
    void recheck() override
    {
        ++rechecks;
        setState(State::Booting);
    }
    void stop() override
    {
        ++stops;
        setState(State::Stopping);
    }
    GuestTeardown stopAndWait() override
    {
        setState(State::Stopped);
        return {};
    }

    // What the libvirt machine would report, step by step.
    void reachNetwork()
    {
        // Loopback: the turn's gateway listens on the host side for real.
        m_subnet = libvirt::TurnSubnet{libvirt::Ipv4Range{0x7f000000, 30}};
        emit networkReady();
        emit proxyStarted();
    }
    void beginBoot()
    {
        setState(State::Booting);
        emit booting();
    }
    void becomeReady()
    {
        setState(State::Ready);
        emit ready();
    }
    void say(const QJsonObject &message) { emit guestMessage(message); }
    void closeChannel() { emit guestClosed(); }
    void breakDown(const Error &error)
    {
        setState(State::Failed);
        emit failed(error);
    }
    void finishStopping()
    {
        setState(State::Stopped);
        emit stopped({{{QStringLiteral("domain"), 1}}, {}, 2});
    }

    GuestMachineSpec m_spec;
    std::optional<libvirt::TurnSubnet> m_subnet;
    QList<QJsonObject> specs;
    QList<QJsonObject> sent;
    // What answerQuestion() told the proxy.
    QList<QJsonObject> answers;
    int rechecks = 0;
    int stops = 0;
};

// A turn environment whose machines are fakes, each recorded in `made` as
// it is asked for; no libvirt connection, no workers.
inline std::unique_ptr<TurnEnvironment> fakeMachineEnvironment(store::Store &store,
                                                               TurnRecords &records,
                                                               const RunnerSettings &settings,
                                                               QList<FakeGuestMachine *> &made)
{
    const GuestMachineFactory makeMachine = [&made](GuestMachineSpec spec) {
        auto machine = std::make_unique<FakeGuestMachine>(std::move(spec));
        made << machine.get();
        return std::unique_ptr<GuestMachine>(std::move(machine));
    };
    return std::unique_ptr<TurnEnvironment>(
        new TurnEnvironment{store,
                            records,
                            nullptr,
                            QStringLiteral("1:1"),
                            settings,
                            libvirt::SubnetPool(libvirt::Ipv4Range{}),
                            {},
                            {},
                            nullptr,
                            {},
                            makeMachine,
                            {},
                            {}});
}

} // namespace arizuko::turns
