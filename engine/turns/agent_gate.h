#pragma once

// What must happen before a turn's agent may start, beside its machine
// being ready: the home history's snapshot before the turn
// (engine/history/turn_history_recorder.h) holds the agent while the turn
// enters Preparing, and opens the gate when the snapshot has reported; the
// turn sends the spec that starts its agent only through an open gate, and
// fails with the reason a gate is opened with. One gate per runner
// (TurnEnvironment), keyed by turn id: the holder never reaches into a Turn.

#include "core/result.h"

#include <QObject>
#include <QSet>
#include <QString>

namespace arizuko::turns {

class AgentGate final : public QObject
{
    Q_OBJECT

public:
    AgentGate() = default;

    // Keeps the turn's agent from starting until open().
    void hold(const QString &turnId) { m_held.insert(turnId); }
    // Lets it start, or, with an error, fails the turn with it.
    void open(const QString &turnId, const Result<void> &ready)
    {
        if (m_held.remove(turnId))
            emit opened(turnId, ready);
    }
    bool isHeld(const QString &turnId) const { return m_held.contains(turnId); }
    // A turn that ended waits for nothing: its hold goes with it, opened or not.
    void forget(const QString &turnId) { m_held.remove(turnId); }

signals:
    void opened(const QString &turnId, const arizuko::Result<void> &ready);

private:
    QSet<QString> m_held;
};

} // namespace arizuko::turns
