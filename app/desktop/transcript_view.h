#pragma once

// The transcript of one topic: a web page loaded once, fed through
// TranscriptBridge. Opening a topic draws one page from its end (a long
// turn only its tail), earlier pages on request, and appends a running
// turn's events as the engine reports them. Each ended turn shown gets a
// Changes block from its home's history, read on a worker.
// Ctrl+F finds text; the whole topic can be copied as markdown.

#include "turn_records/turn_record.h"
#include "web_view_compositing.h"

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
class TurnChangesReader;

class TranscriptView final : public QWidget
{
    Q_OBJECT

public:
    // A page: at most this many turns and this many events. Opening a topic
    // shows the last page; "Show earlier" or scrolling to the top adds the
    // page before.
    static constexpr int turnsPerPage = 5;
    static constexpr int eventsPerPage = 200;

    explicit TranscriptView(store::Store &store, QWidget *parent = nullptr);

    void showTopic(const QString &folder, const QString &topic);
    QString folder() const { return m_folder; }
    QString topic() const { return m_topic; }

    // A turn of the shown topic was queued, reported events, or ended.
    void addTurn(const turns::TurnRecord &turn);
    void addEvents(const QList<turns::TurnEventRecord> &events);
    void endTurn(const turns::TurnRecord &turn);
    // The home's history recorded a turn's snapshot after: its Changes
    // block is read (again) if the turn is shown.
    void changesRecorded(const QString &turnId);

    void showFindBar();
    QString markdown() const;
    void copyAsMarkdown() const;

    TranscriptBridge *bridge() const { return m_bridge; }
    TranscriptPage *page() const { return m_page; }
    QWebEngineView *webView() const { return m_view; }
    WebViewCompositing compositing() const { return m_compositing; }

private:
    void showEarlier();
    bool hasEarlier() const;
    // Reads the page before what is shown and marks it shown; its items in order.
    QJsonArray takeEarlierPage();
    void find(bool backward);
    // The index in m_turns of a turn on the page, or -1.
    qsizetype shownTurn(const QString &turnId) const;
    void showChanges(const QJsonObject &item);

    store::Store &m_store;
    QString m_folder;
    QString m_topic;
    // The topic's turns, oldest first. On the page: the turns from
    // m_firstShown on, and of that one its events from m_firstSeq on (0:
    // the whole turn, its prompt included).
    QList<turns::TurnRecord> m_turns;
    qsizetype m_firstShown = 0;
    qint64 m_firstSeq = 0;
    WebViewCompositing m_compositing;
    QWebEngineView *m_view;
    TranscriptPage *m_page;
    QWebChannel *m_channel;
    TranscriptBridge *m_bridge;
    TurnChangesReader *m_changes;
    QWidget *m_findBar;
    QLineEdit *m_findText;
};

} // namespace arizuko::desktop
