#include "tools/topic_messages.h"

#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QVariant>

namespace arizuko::tools {

Result<TopicMessage> postMessage(store::Store &store, const QString &folder, const QString &topic,
                                 const QString &role, const QString &content)
{
    TopicMessage message{0, folder, topic, role, content, store::nowTimestamp()};
    auto inserted = store::execute(
        store.database(),
        QStringLiteral("INSERT INTO messages (group_folder, topic, role, content, created_at) "
                       "VALUES (?, ?, ?, ?, ?)"),
        {folder, topic, role, content, message.createdAt});
    if (!inserted)
        return inserted.error();
    message.id = inserted->lastInsertId().toLongLong();
    return message;
}

Result<QList<TopicMessage>> topicMessages(store::Store &store, const QString &folder,
                                          const QString &topic)
{
    auto selected = store::execute(
        store.database(),
        QStringLiteral("SELECT id, role, content, created_at FROM messages WHERE group_folder = ? "
                       "AND topic = ? ORDER BY id"),
        {folder, topic});
    if (!selected)
        return selected.error();
    QList<TopicMessage> messages;
    while (selected->next())
        messages << TopicMessage{selected->value(0).toLongLong(), folder, topic,
                                 selected->value(1).toString(), selected->value(2).toString(),
                                 selected->value(3).toString()};
    return messages;
}

} // namespace arizuko::tools
