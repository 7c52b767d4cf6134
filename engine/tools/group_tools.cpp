// The tools that start turns in other folders. Neither waits for the turn
// it queues: a turn holds a VM and a queue slot, and a chain of waiting
// turns would deadlock the runner.

#include "tools/tool_catalogue.h"

#include "folders/folder_names.h"
#include "tools/observations.h"

namespace arizuko::tools {
namespace {

// Runaway chains (a delegating to b delegating back to a…) stop here.
std::optional<ToolOutcome> beyondDepth(const TurnBinding &binding)
{
    if (binding.depth + 1 <= binding.maxDepth)
        return std::nullopt;
    return toolError(QStringLiteral("refused: this turn is %1 delegations deep and the limit is "
                                    "%2; no further turn was queued")
                         .arg(binding.depth)
                         .arg(binding.maxDepth));
}

ToolOutcome queue(ToolContext &context, const TurnOrder &order, const QString &what)
{
    const auto queued = context.queue(order);
    if (!queued)
        return toolError(queued.error().message);
    return {QStringLiteral("queued turn %1 in %2 (topic %3): %4")
                .arg(*queued, order.folder, order.topic, what)};
}

} // namespace

ToolOutcome delegateGroup(ToolContext &context, const QJsonObject &arguments)
{
    if (const auto refused = beyondDepth(context.binding))
        return *refused;
    const auto folder = stringArgument(arguments, QStringLiteral("folder"));
    const auto prompt = stringArgument(arguments, QStringLiteral("prompt"));
    if (!folder || !prompt)
        return toolError((folder ? prompt.error() : folder.error()).message);
    const QString topic = arguments.value(QStringLiteral("topic")).toString().trimmed();
    if (!topic.isEmpty()) {
        if (const Result<void> valid = folders::validateTopicName(topic); !valid)
            return toolError(valid.error().message);
    }
    const TurnOrder order{*folder, topic.isEmpty() ? context.binding.topic : topic, *prompt,
                          context.binding.depth + 1, {}, {}};
    return queue(context, order, QStringLiteral("it runs on its own; this call does not wait"));
}

ToolOutcome escalateGroup(ToolContext &context, const QJsonObject &arguments)
{
    if (const auto refused = beyondDepth(context.binding))
        return *refused;
    const auto prompt = stringArgument(arguments, QStringLiteral("prompt"));
    if (!prompt)
        return toolError(prompt.error().message);
    const TurnOrder order{folders::parentFolder(context.binding.folder), context.binding.topic,
                          *prompt, context.binding.depth + 1, context.binding.folder,
                          context.binding.topic};
    return queue(context, order,
                 QStringLiteral("its answer will be posted to this topic as a message"));
}

ToolOutcome observeGroup(ToolContext &context, const QJsonObject &arguments)
{
    const QString source = arguments.value(QStringLiteral("folder")).toString().trimmed();
    const TurnBinding &turn = context.binding;
    if (const Result<void> done = observe(context.store, turn.folder, turn.topic, source); !done)
        return toolError(done.error().message);
    const ObserveCaps caps;
    return {QStringLiteral("observing %1: its new messages reach this topic at the start of its "
                           "next turn (at most %2 messages, %3 characters)")
                .arg(source)
                .arg(caps.messages)
                .arg(caps.characters)};
}

ToolOutcome unobserveGroup(ToolContext &context, const QJsonObject &arguments)
{
    const QString source = arguments.value(QStringLiteral("folder")).toString().trimmed();
    const TurnBinding &turn = context.binding;
    const auto removed = unobserve(context.store, turn.folder, turn.topic, source);
    if (!removed)
        return toolError(removed.error().message);
    return {*removed ? QStringLiteral("no longer observing %1").arg(source)
                     : QStringLiteral("this topic was not observing %1").arg(source)};
}

} // namespace arizuko::tools
