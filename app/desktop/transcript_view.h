#pragma once

// The transcript of one topic: a web page loaded once, fed through
// TranscriptBridge. Opening a topic draws one page from its end (a long
// turn only its tail), earlier pages on request, and appends a running
// turn's events as the engine reports them. Pages, the Changes block of
// each ended turn shown (from its home's history) and the markdown copy
// are read through the workspace, on workers.
// Ctrl+F finds text; the whole topic can be copied as markdown.

#include "turn_records/turn_record.h"
#include "turns/turn_event_slice.h"
#include "web_view_compositing.h"

#include <QHash>
#include <QList>
#include <QWidget>
#include <functional>

class QLineEdit;
class QWebEngineView;
class QWebChannel;

namespace arizuko::engine {
class Workspace;
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

    explicit TranscriptView(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Shows the topic's last page once it is read; what the engine reports
    // meanwhile follows it.
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
    // The whole topic as markdown, also what is not on the page yet: read
    // and written on workers, then handed to `done` here.
    void markdown(std::function<void(const QString &)> done);
    void copyAsMarkdown();

    TranscriptBridge *bridge() const { return m_bridge; }
    TranscriptPage *page() const { return m_page; }
    QWebEngineView *webView() const { return m_view; }
    WebViewCompositing compositing() const { return m_compositing; }

private:
    void showEarlier();
    bool hasEarlier() const { return m_first.hasEarlier(); }
    // Reads the page before what is shown on a worker and marks it shown,
    // then `show(items)` in order unless another topic is shown by then.
    void readEarlierPage(std::function<void(const QJsonArray &)> show);
    // The page's items; reads the Changes of each ended turn on it.
    QJsonArray pageItems(const turns::TopicPage &page);
    // What the engine reported while the topic's first page was read, in
    // order, once it is shown (what the page already holds is skipped).
    void replayPending();
    void find(bool backward);
    // The index in m_turns of a turn on the page, or -1.
    qsizetype shownTurn(const QString &turnId) const;
    void showChanges(const QJsonObject &item);

    engine::Workspace &m_workspace;
    QString m_folder;
    QString m_topic;
    // The topic's turns, oldest first. On the page: what m_first says.
    QList<turns::TurnRecord> m_turns;
    turns::TopicCursor m_first;
    // Which showTopic is current (what was read for another is dropped);
    // whether its first page or an earlier one is being read; the engine's
    // reports held meanwhile; the last event of each turn the first page
    // ended with.
    quint64 m_showing = 0;
    bool m_loading = false;
    bool m_readingEarlier = false;
    QList<std::function<void()>> m_pending;
    QHash<QString, qint64> m_pageLastSeq;
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
