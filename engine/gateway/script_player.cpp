#include "gateway/script_player.h"

namespace arizuko::gateway {

ScriptPlayer::ScriptPlayer(ScriptedReply reply, HttpExchange *exchange)
    : QObject(exchange)
    , m_reply(std::move(reply))
    , m_exchange(exchange)
{
    m_timer.setSingleShot(true);
}

void ScriptPlayer::start()
{
    if (m_reply.delay.count() <= 0) {
        begin();
        return;
    }
    connect(&m_timer, &QTimer::timeout, this, &ScriptPlayer::begin, Qt::SingleShotConnection);
    m_timer.start(m_reply.delay);
}

void ScriptPlayer::begin()
{
    if (!m_reply.streamed) {
        m_exchange->respond(m_reply.status, m_reply.headers, m_reply.body);
        emit sent(m_reply.body);
        emit finished(false);
        return;
    }
    m_exchange->beginStream(m_reply.status, m_reply.headers);
    connect(&m_timer, &QTimer::timeout, this, &ScriptPlayer::sendNext);
    sendNext();
}

void ScriptPlayer::sendNext()
{
    // Without a delay every event goes out in this one call.
    while (m_next < m_reply.events.size()) {
        if (m_next == m_reply.dropAfterEvents) {
            m_exchange->abortConnection();
            emit finished(true);
            return;
        }
        const QByteArray &event = m_reply.events[m_next++];
        m_exchange->writeChunk(event);
        emit sent(event);
        if (m_reply.eventDelay.count() > 0 && m_next < m_reply.events.size()) {
            m_timer.start(m_reply.eventDelay);
            return;
        }
    }
    m_exchange->endStream();
    emit finished(false);
}

} // namespace arizuko::gateway
