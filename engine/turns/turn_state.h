#pragma once

// The phases of a turn and its end states, as stored in `turns.state`.

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

// The `turns` column holding the time the turn entered `state`; every end
// state shares `ended_at`.
QString turnStateTimeColumn(TurnState state);

} // namespace arizuko::turns
