// The tools about the turn's own conversation: posting to its topic and
// forking it.

#include "tools/tool_catalogue.h"
#include "tools/topic_messages.h"

#include "agent/topic_fork.h"

namespace arizuko::tools {

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

ToolOutcome forkTopic(ToolContext &context, const QJsonObject &arguments)
{
    const QString name = arguments.value(QStringLiteral("name")).toString().trimmed();
    const auto forked = agent::forkTopic(context.store, context.binding.folder,
                                         context.binding.folder, context.binding.topic, name);
    if (!forked)
        return toolError(forked.error().message);
    QString text = QStringLiteral("forked topic %1 as %2")
                       .arg(context.binding.topic, forked->topic.name);
    if (forked->copyError)
        text += QStringLiteral("; its first turn starts afresh: %1").arg(forked->copyError->message);
    return {text};
}

} // namespace arizuko::tools
