#pragma once

// The one object the transcript page sees over QWebChannel. The page is
// loaded once; items reach it through these signals. Calls made before the
// page has connected are queued and replayed when it says it is ready.

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <functional>

namespace arizuko::desktop {

class TranscriptBridge final : public QObject
{
    Q_OBJECT
    // The page's own words, in the user's language: the page is static HTML
    // and has no translator, so it reads them once when it connects.
    Q_PROPERTY(QJsonObject texts READ texts CONSTANT)

public:
    using QObject::QObject;

    QJsonObject texts() const;

    bool isPageReady() const { return m_ready; }
    void showReset(bool hasEarlier);
    void showAppended(const QJsonArray &items);
    void showPrepended(const QJsonArray &items, bool more);

    // Called by the page.
    Q_INVOKABLE void pageReady();
    Q_INVOKABLE void requestEarlier();

signals:
    // To the page.
    void reset(bool hasEarlier);
    void appended(const QJsonArray &items);
    void prepended(const QJsonArray &items, bool more);
    // To the window.
    void ready();
    void earlierRequested();

private:
    bool m_ready = false;
    QList<std::function<void()>> m_queued;
};

} // namespace arizuko::desktop
