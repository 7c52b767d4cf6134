#pragma once

// How a turn ends when its guest stops or never reports: the end state and
// the error the transcript and arizukoctl show.

#include "core/result.h"
#include "turn_records/turn_state.h"

#include <QJsonObject>
#include <chrono>
#include <optional>

namespace arizuko::turns {

struct TurnOutcome
{
    TurnState state = TurnState::Failed;
    std::optional<Error> error;
};

// The guest's channel closed: after its `exit` message (or without one).
TurnOutcome outcomeOfGuestExit(const std::optional<QJsonObject> &exit,
                               const QString &consoleLogPath);

// The guest did not report within the boot limit; the error quotes the end
// of its console log.
Error bootTimeoutError(const QString &consoleLogPath, std::chrono::milliseconds limit);

} // namespace arizuko::turns
