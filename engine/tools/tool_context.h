#pragma once

// What one turn's tools are bound to and may use: the turn (folder, topic,
// how deep in a delegation chain), the store, the live policy, and the
// runner's queue for the turns a tool asks for.

#include "core/result.h"

#include <QJsonObject>
#include <QString>
#include <functional>

class QObject;

namespace arizuko::store {
class Store;
}
namespace arizuko::policy {
class Policy;
}

namespace arizuko::tools {

// Delegations and escalations a turn may stack before tools refuse more.
inline constexpr int defaultMaxDepth = 3;
// Breadth: turns one turn may start (delegate_group, escalate_group), and
// turns a folder's agents may start in any hour. With the depth limit they
// bound what one prompt can set going (and pay for).
inline constexpr int defaultTurnsPerTurn = 5;
inline constexpr int defaultTurnsPerFolderHour = 20;

struct TurnBinding
{
    QString turnId;
    QString folder;
    QString topic;
    // 0: a turn a person asked for; n: n delegations or escalations deep.
    int depth = 0;
    int maxDepth = defaultMaxDepth;
    int maxTurnsPerTurn = defaultTurnsPerTurn;
    int maxTurnsPerFolderHour = defaultTurnsPerFolderHour;
};

// A turn a tool asks the runner to queue; it does not wait for it.
struct TurnOrder
{
    QString folder;
    QString topic;
    QString prompt;
    int depth = 0;
    // Where the turn's final answer is posted as a message (escalate_group).
    QString replyFolder;
    QString replyTopic;
};
// Queues the turn and returns its name (az-…).
using QueueTurn = std::function<Result<QString>(const TurnOrder &order)>;

// What the agent reads back: a sentence, marked as an error when the call
// was refused or failed.
struct ToolOutcome
{
    QString text;
    bool isError = false;
};

ToolOutcome toolError(const QString &text);

// How an outcome comes back: at once for most tools, later (on the engine
// thread, once) for a tool whose work runs on a worker (fork_topic's copy).
using ToolFinished = std::function<void(const ToolOutcome &outcome)>;

struct ToolContext
{
    store::Store &store;
    policy::Policy &policy;
    const TurnBinding &binding;
    const QueueTurn &queue;
    // A message the turn posted, for its transcript.
    std::function<void(const QJsonObject &message)> posted;
    // What work a tool leaves running is tied to: gone with the turn, and
    // an answer nobody can read any more is dropped with it.
    QObject &owner;
};

// A required string argument, trimmed; empty or absent is an error naming it.
Result<QString> stringArgument(const QJsonObject &arguments, const QString &name);

} // namespace arizuko::tools
