#include "transcript_bridge.h"

namespace arizuko::desktop {

void TranscriptBridge::showReset(bool hasEarlier)
{
    if (!m_ready) {
        // A reset makes everything queued before it moot.
        m_queued.clear();
        m_queued << [this, hasEarlier] { emit reset(hasEarlier); };
        return;
    }
    emit reset(hasEarlier);
}

void TranscriptBridge::showAppended(const QJsonArray &items)
{
    if (items.isEmpty())
        return;
    if (!m_ready) {
        m_queued << [this, items] { emit appended(items); };
        return;
    }
    emit appended(items);
}

void TranscriptBridge::showPrepended(const QJsonArray &items, bool more)
{
    if (!m_ready) {
        m_queued << [this, items, more] { emit prepended(items, more); };
        return;
    }
    emit prepended(items, more);
}

void TranscriptBridge::pageReady()
{
    m_ready = true;
    const auto queued = std::exchange(m_queued, {});
    for (const auto &call : queued)
        call();
    emit ready();
}

void TranscriptBridge::requestEarlier()
{
    emit earlierRequested();
}

} // namespace arizuko::desktop
