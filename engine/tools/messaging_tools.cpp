// The tools about the turn's own conversation: posting to its topic and
// forking it.

#include "agent/topic_fork.h"
#include "core/run_on_worker.h"
#include "tools/tool_catalogue.h"
#include "tools/topic_messages.h"

namespace arizuko::tools {
namespace {

ToolOutcome forkOutcome(const QString &source, const agent::ForkedTopic &forked)
{
    if (forked.copyError)
        return toolError(QStringLiteral("forked topic %1 as %2, but its conversation was not "
                                        "copied, so its first turn starts afresh: %3")
                             .arg(source, forked.topic.name, forked.copyError->message));
    return {QStringLiteral("forked topic %1 as %2").arg(source, forked.topic.name)};
}

} // namespace

ToolOutcome sendMessage(ToolContext &context, const QJsonObject &arguments)
{
    const auto text = stringArgument(arguments, QStringLiteral("text"));
    if (!text)
        return toolError(text.error().message);
    const auto posted = postMessage(context.store, context.binding.folder, context.binding.topic,
                                    QStringLiteral("agent"), *text);
    if (!posted)
        return toolError(posted.error().message);
    context.posted({{QStringLiteral("id"), posted->id},
                    {QStringLiteral("folder"), posted->folder},
                    {QStringLiteral("topic"), posted->topic},
                    {QStringLiteral("role"), posted->role},
                    {QStringLiteral("text"), posted->content}});
    return {QStringLiteral("posted to topic %1 of %2 (message %3)")
                .arg(posted->topic, posted->folder)
                .arg(posted->id)};
}

// The topic is made here, in the store; the conversation (up to
// agent::maxForkedSessionBytes) is copied on a worker, so the engine thread
// keeps serving every other turn meanwhile, and the call is answered when
// the copy is done.
void forkTopic(ToolContext &context, const QJsonObject &arguments, ToolFinished finished)
{
    const QString name = arguments.value(QStringLiteral("name")).toString();
    const QString &source = context.binding.topic;
    const auto plan = agent::createTopicFork(context.store, context.binding.folder,
                                             context.binding.folder, source, name);
    if (!plan)
        return finished(toolError(plan.error().message));
    runOnWorker(
        &context.owner, [plan = *plan] { return agent::copyForkedConversation(plan); },
        [source, finished = std::move(finished)](const agent::ForkedTopic &copied) {
            finished(forkOutcome(source, copied));
        });
}

} // namespace arizuko::tools
