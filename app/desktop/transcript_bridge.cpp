#include "transcript_bridge.h"

namespace arizuko::desktop {

QJsonObject TranscriptBridge::texts() const
{
    return {{QStringLiteral("lang"),
             tr("en", "the code of the language the texts are in, for the page's lang")},
            {QStringLiteral("title"), tr("Transcript")},
            {QStringLiteral("transcript"),
             tr("Transcript", "the accessible name of the page's message log")},
            {QStringLiteral("earlier"), tr("Show earlier")},
            {QStringLiteral("empty"), tr("Select a topic, then write a prompt below.")}};
}

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
