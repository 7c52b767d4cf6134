#pragma once

// The phases of a turn and its end states, as stored in `turns.state`.

#include <QList>
#include <QString>
#include <optional>

namespace arizuko::turns {

enum class TurnState
{
    Queued,
    Preparing,
    Booting,
    Running,
    Finishing,
    Done,
    Failed,
    Cancelled,
    Interrupted,
};

QString turnStateName(TurnState state);
std::optional<TurnState> turnStateFromName(const QString &name);
bool isTerminal(TurnState state);
// Started and not ended: a turn that holds its topic (preparing … finishing).
bool isActive(TurnState state);

// The states as an SQL list, "('done', 'failed', …)", for `state IN …`:
// the one place the store's queries learn which states are which.
QString terminalStatesSql();
QString activeStatesSql();

// The `turns` column holding the time the turn entered `state`; every end
// state shares `ended_at`.
QString turnStateTimeColumn(TurnState state);

} // namespace arizuko::turns
