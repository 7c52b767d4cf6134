#pragma once

// Warm start: guest machines booted ahead of their prompt. A spare is a
// GuestMachine (guest_machine.h) made for one folder's network policy and
// home, booted to the point where the guest waits for a turn spec (it has
// touched nothing of the folder yet). A turn of the same folder adopts it
// when the turn's plan is what the spare was made with, so submit -> agent
// running is only the spec's hand-off; otherwise the spare is torn down
// and the turn starts cold. The pool holds at most one spare, drops it at
// its age limit, and boots one for a folder the user looks at only once
// the user stays there (a click in the tree does not boot a VM).
// docs/turns.md, "Warm start".

#include "libvirt/connection.h"
#include "turns/guest_machine.h"
#include "turns/prestart_decision.h"
#include "turns/turn_environment.h"
#include "turns/turn_services.h"
#include "turns/turn_spec.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace arizuko::turns {

class Turn;

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
    UnlistedHostsPolicy unlisted;
    // The proxy's rules by method and path: a folder with any gets no spare
    // (its proxy needs the turn's CA, made for the turn's deadline).
    QStringList rules;
    // The bound secrets the folder sees ("folder/NAME"): likewise no spare
    // (its proxy needs the values and the turn's own placeholders).
    QStringList boundSecrets;
    // Claude Code started in the spare before its prompt (runner setting
    // `ARIZUKO_PRESTART`). Not compared by differenceFrom(): a turn that
    // cannot use it still adopts the spare, and its guest launches the
    // agent as a cold turn does (PrestartDecision says when).
    std::optional<PrestartedAgent> agent;

    static SpareBasis of(const QString &folder, const TurnPlan &plan);
    // What differs from `now` (a sentence for the turn's `spare` event),
    // empty when nothing does.
    QString differenceFrom(const SpareBasis &now) const;
};

// A spare as the turn takes it over.
struct BootedGuest
{
    std::unique_ptr<GuestMachine> machine;
    // What the guest sent before any turn existed (its `booted` status,
    // and `agent-started`, `agent-idle` of a started agent).
    QList<QJsonObject> guestMessages;
    qint64 ageMs = 0;
    // With a started agent: the gateway and tool server it connected to at
    // its start (their token is in its environment), not yet serving the
    // model, and what they recorded before the turn (refusals).
    std::unique_ptr<TurnServices> services;
    std::optional<PrestartedAgent> agent;
    QList<QPair<QString, QJsonObject>> serviceEvents;
};

class SparePool final : public QObject
{
    Q_OBJECT

public:
    // How long a folder must stay the one looked at before its spare boots.
    static constexpr std::chrono::milliseconds settleTime{1500};
    // At most this many spares booted for looked-at folders per minute.
    static constexpr int maxSettledBootsPerMinute = 4;

    explicit SparePool(TurnEnvironment &environment, QObject *parent = nullptr);
    // Every spare, also those still tearing down, is gone before this returns.
    ~SparePool() override;

    // The spare (made or being made) and what it was made with.
    bool hasSpare() const { return m_spare.has_value(); }
    QString spareName() const;
    const SpareBasis *basis() const { return m_spare ? &m_spare->basis : nullptr; }
    bool isReady() const;
    // A spare (made or being made) for `folder`.
    bool isFor(const QString &folder) const { return m_spare && m_spare->basis.folder == folder; }
    // False once libvirtd closed the connection the spare was made on (a
    // restart): what it holds is then not to be trusted.
    bool connectionAlive() const;
    // The /30s of the spare and of spares still tearing down.
    QList<libvirt::Ipv4Range> subnets() const;

    // What a spare for `folder` is made with now: the store's home and
    // network policy, and the agent it starts ahead (PrestartDecision).
    Result<SpareBasis> basisFor(const QString &folder) const;
    // Boots a spare for `basis` now; one for another folder is discarded.
    void boot(SpareBasis basis);
    // A spare for `folder`, the likeliest of the next prompt, when the
    // warm-start setting is on and a slot is free beside the runner's
    // `liveTurns` (none queued: those come first); otherwise the spare of
    // another folder yields.
    void prepare(const QString &folder, int liveTurns);
    // Starts `turn` in the spare when the spare is ready, of its folder and
    // its plan matches what the spare was made with; otherwise, with a
    // spare, records why, discards it and starts the turn cold in the slot
    // the spare held.
    void startTurn(Turn &turn, const Result<TurnPlan> &plan);
    // The folder the user looks at: settled() once it stays so for
    // settleTime and the boots of the last minute allow one more.
    void settle(const QString &folder);
    // Only when ready: the spare's machine for the adopting turn; the pool
    // holds nothing afterwards.
    BootedGuest adopt();
    // Tears the spare down in the background, if there is one.
    void discard(const QString &why);

signals:
    // The spare's guest is booted behind its verified filter.
    void ready(const QString &name, const QString &folder);
    // Making it failed, or its guest or proxy ended, or it grew too old;
    // the pool has not discarded it yet.
    void lost(const QString &why);
    void discarded(const QString &name, const QString &why);
    void settled(const QString &folder);

private:
    struct Spare
    {
        std::unique_ptr<GuestMachine> machine;
        SpareBasis basis;
        std::shared_ptr<libvirt::Connection> connection;
        QList<QJsonObject> guestMessages;
        QElapsedTimer age;
        std::unique_ptr<TurnServices> services;
        QList<QPair<QString, QJsonObject>> serviceEvents;
    };
    void onSettled();
    // The started agent's gateway, on the spare's network as soon as it
    // exists; the `prestart` goes once the machine is ready.
    void startServices(GuestMachine *machine);
    void prestart(GuestMachine *machine);
    void loseLater(GuestMachine *machine, const QString &why);
    // Why `turn`, adopting the spare, cannot hand its prompt to the spare's
    // started agent (empty: it can, and `plan`'s session is the agent's).
    QString prestartRefusal(const Turn &turn, TurnPlan &plan);

    TurnEnvironment &m_environment;
    PrestartDecision m_prestart;
    std::optional<Spare> m_spare;
    // Discarded spares tear down in the background.
    std::vector<std::unique_ptr<GuestMachine>> m_discarded;
    QTimer m_maxAge;
    QTimer m_settle;
    QString m_settling;
    std::deque<QElapsedTimer> m_settledBoots; // of the last minute
};

} // namespace arizuko::turns
