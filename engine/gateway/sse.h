#pragma once

// Server-sent events as the Anthropic API streams them: writing one event,
// and reading events back out of a byte stream cut at arbitrary places.

#include "core/line_buffer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace arizuko::gateway {

struct SseEvent
{
    QByteArray name; // "message_start"
    QByteArray data; // the JSON text
};

// "event: NAME\ndata: JSON\n\n"
QByteArray encodeSseEvent(QByteArrayView name, const QJsonObject &data);

class SseReader
{
public:
    // Appends bytes; complete events are returned, the rest waits. Lines
    // beyond the limit are dropped, so a hostile stream cannot grow it.
    QList<SseEvent> feed(QByteArrayView bytes);

private:
    LineBuffer m_lines;
    SseEvent m_event;
};

} // namespace arizuko::gateway
