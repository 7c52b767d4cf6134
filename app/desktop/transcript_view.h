#pragma once

// The transcript of one topic: a web page loaded once, fed through
// TranscriptBridge. Shows the latest turns of the topic, earlier ones on
// request, and appends a running turn's events as the engine reports them.
// Ctrl+F finds text; the whole topic can be copied as markdown.

#include "turns/turn_record.h"

#include <QList>
#include <QWidget>

class QLineEdit;
class QWebEngineView;
class QWebChannel;

namespace arizuko::store {
class Store;
}

namespace arizuko::desktop {

class TranscriptBridge;
class TranscriptPage;

class TranscriptView final : public QWidget
{
    Q_OBJECT

public:
    // How many turns opening a topic shows; "Show earlier turns" adds as many.
    static constexpr int turnsPerPage = 5;

    explicit TranscriptView(store::Store &store, QWidget *parent = nullptr);

    void showTopic(const QString &folder, const QString &topic);
    QString folder() const { return m_folder; }
    QString topic() const { return m_topic; }

    // A turn of the shown topic was queued, reported events, or ended.
    void addTurn(const turns::TurnRecord &turn);
    void addEvents(const QList<turns::TurnEventRecord> &events);
    void endTurn(const turns::TurnRecord &turn);

    void showFindBar();
    QString markdown() const;
    void copyAsMarkdown() const;

    TranscriptBridge *bridge() const { return m_bridge; }
    TranscriptPage *page() const { return m_page; }
    QWebEngineView *webView() const { return m_view; }

private:
    void showEarlier();
    void find(bool backward);

    store::Store &m_store;
    QString m_folder;
    QString m_topic;
    // The topic's turns, oldest first, and how many of the oldest are not
    // on the page yet.
    QList<turns::TurnRecord> m_turns;
    QList<QList<turns::TurnEventRecord>> m_events;
    qsizetype m_hidden = 0;
    QWebEngineView *m_view;
    TranscriptPage *m_page;
    QWebChannel *m_channel;
    TranscriptBridge *m_bridge;
    QWidget *m_findBar;
    QLineEdit *m_findText;
};

} // namespace arizuko::desktop
