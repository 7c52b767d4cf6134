#pragma once

// One row of `turns` and one of `turn_events`, as read back from the store.

#include "turn_records/turn_state.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace arizuko::turns {

struct TurnRecord
{
    QString id;
    QString name; // az-<turn8>
    QString folder;
    QString topic;
    QString agent;
    QString prompt;
    TurnState state = TurnState::Queued;
    QString queuedAt;
    QString preparingAt;
    QString bootingAt;
    QString runningAt;
    QString finishingAt;
    QString endedAt;
    QString deadlineAt;
    QString cancelRequestedAt;
    std::optional<int> exitCode;
    QString errorCode;
    QString error;
    QString accelerator;
    QString subnet;
    QString vmName;
    QString networkName;
    qint64 proxyPid = 0;
    QString proxyAddress;
    qint64 enginePid = 0;
    QString engineStarted;
    // Tokens and cost as the model gateway counted them (never the agent's
    // own claim); no cost when the model's price is unknown.
    std::optional<double> costUsd;
    QJsonObject usage;

    QJsonObject toJson() const;
};

struct TurnEventRecord
{
    QString turn;
    qint64 seq = 0;
    QString kind;
    QJsonObject json;
    QString at;
};

} // namespace arizuko::turns
