#include "gateway/sse.h"

#include <QJsonDocument>

namespace arizuko::gateway {

namespace {
// Anthropic's events are a few KiB at most; a larger line is not one of them.
constexpr qsizetype maxLineBytes = 1024 * 1024;
} // namespace

QByteArray encodeSseEvent(QByteArrayView name, const QJsonObject &data)
{
    return "event: " + name.toByteArray() + "\ndata: "
           + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
}

QList<SseEvent> SseReader::feed(QByteArrayView bytes)
{
    QList<SseEvent> events;
    const QByteArrayList lines = m_lines.feed(bytes);
    for (QByteArrayView line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty()) {
            if (!m_event.name.isEmpty() || !m_event.data.isEmpty())
                events.append(std::exchange(m_event, SseEvent()));
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        const QByteArrayView field = colon < 0 ? line : line.first(colon);
        QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
        if (field == "event") {
            m_event.name = value.toByteArray();
        } else if (field == "data") {
            if (!m_event.data.isEmpty())
                m_event.data += '\n';
            m_event.data += value;
        }
    }
    if (m_lines.pendingSize() > maxLineBytes)
        m_lines.clear();
    return events;
}

} // namespace arizuko::gateway
