#pragma once

// The `messages` rows of a topic: what its agent posted (send_message) and
// the answers escalated turns post back.

#include "core/result.h"

#include <QList>
#include <QString>

namespace arizuko::store {
class Store;
}

namespace arizuko::tools {

struct TopicMessage
{
    qint64 id = 0;
    QString folder;
    QString topic;
    QString role; // "agent", or "agent:<folder>" for an answer from another folder
    QString content;
    QString createdAt;
};

// The topic must exist.
Result<TopicMessage> postMessage(store::Store &store, const QString &folder, const QString &topic,
                                 const QString &role, const QString &content);
Result<QList<TopicMessage>> topicMessages(store::Store &store, const QString &folder,
                                          const QString &topic);

} // namespace arizuko::tools
