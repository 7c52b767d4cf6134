#pragma once

// Puts a ScriptedReply on the wire: after its delay, whole or event by
// event, cut short where the script drops the connection. A child of its
// exchange, so it ends with it whatever the client does.

#include "gateway/http_server.h"
#include "gateway/scripted_model.h"

#include <QObject>
#include <QTimer>

namespace arizuko::gateway {

class ScriptPlayer final : public QObject
{
    Q_OBJECT

public:
    ScriptPlayer(ScriptedReply reply, HttpExchange *exchange);

    void start();

signals:
    // Each piece of the body as it is written (the whole body, or one event).
    void sent(const QByteArray &bytes);
    // `dropped`: the connection was closed mid-reply, as the script asked.
    void finished(bool dropped);

private:
    void begin();
    void sendNext();

    ScriptedReply m_reply;
    HttpExchange *m_exchange;
    QTimer m_timer;
    qsizetype m_next = 0;
};

} // namespace arizuko::gateway
