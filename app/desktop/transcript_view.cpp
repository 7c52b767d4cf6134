#include "transcript_view.h"

#include "core/run_on_worker.h"
#include "engine/workspace.h"
#include "transcript_bridge.h"
#include "transcript_items.h"
#include "transcript_page.h"
#include "turn_changes_reader.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWebChannel>
#include <QWebEngineSettings>
#include <QWebEngineView>

namespace arizuko::desktop {

TranscriptView::TranscriptView(engine::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    // Also what links web_view_compositing.cpp, whose choice runs as the
    // program loads, into every program that shows a transcript.
    , m_compositing(webViewCompositing())
    , m_view(new QWebEngineView(this))
    , m_page(new TranscriptPage(m_view))
    , m_channel(new QWebChannel(m_page))
    , m_bridge(new TranscriptBridge(m_channel))
    , m_changes(new TurnChangesReader(workspace, this))
    , m_findBar(new QWidget(this))
    , m_findText(new QLineEdit(m_findBar))
{
    // Nothing the page shows may reach out: no remote content, no plugins.
    QWebEngineSettings *settings = m_page->settings();
    settings->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, false);
    settings->setAttribute(QWebEngineSettings::PluginsEnabled, false);
    settings->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
    settings->setAttribute(QWebEngineSettings::AutoLoadImages, false);
    m_channel->registerObject(QStringLiteral("bridge"), m_bridge);
    m_page->setWebChannel(m_channel);
    m_view->setPage(m_page);
    m_view->setContextMenuPolicy(Qt::NoContextMenu);
    m_view->setAccessibleName(tr("Transcript"));
    m_view->setObjectName(QStringLiteral("transcriptView"));
    m_page->load(QUrl(QStringLiteral("qrc:/transcript/transcript.html")));
    connect(m_bridge, &TranscriptBridge::earlierRequested, this, &TranscriptView::showEarlier);
    connect(m_changes, &TurnChangesReader::itemRead, this, &TranscriptView::showChanges);

    m_findText->setPlaceholderText(tr("Find in the transcript"));
    m_findText->setAccessibleName(tr("Find in the transcript"));
    m_findText->setObjectName(QStringLiteral("findText"));
    auto *next = new QToolButton(m_findBar);
    next->setText(tr("Next"));
    next->setAccessibleName(tr("Find next"));
    auto *close = new QToolButton(m_findBar);
    close->setText(tr("Close"));
    close->setAccessibleName(tr("Close the find bar"));
    auto *findLayout = new QHBoxLayout(m_findBar);
    findLayout->setContentsMargins(0, 0, 0, 0);
    findLayout->addWidget(m_findText, 1);
    findLayout->addWidget(next);
    findLayout->addWidget(close);
    m_findBar->hide();
    connect(m_findText, &QLineEdit::textChanged, this, [this] { find(false); });
    connect(m_findText, &QLineEdit::returnPressed, this, [this] { find(false); });
    connect(next, &QToolButton::clicked, this, [this] { find(false); });
    connect(close, &QToolButton::clicked, this, [this] {
        m_page->findText(QString());
        m_findBar->hide();
        m_view->setFocus();
    });
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_findBar);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, close, &QToolButton::click);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_findBar);
}

void TranscriptView::showTopic(const QString &folder, const QString &topic)
{
    m_folder = folder;
    m_topic = topic;
    m_turns.clear();
    m_first = {};
    const quint64 showing = ++m_showing;
    m_readingEarlier = false;
    m_pending.clear();
    m_pageLastSeq.clear();
    // The topic left goes at once, not when the new one's page is read.
    m_bridge->showReset(false);
    m_loading = !folder.isEmpty() && !topic.isEmpty();
    if (!m_loading)
        return;
    m_workspace.topicTurns(folder, topic, this,
                           [this, showing](const Result<QList<turns::TurnRecord>> &listed) {
                               if (showing != m_showing)
                                   return;
                               if (listed)
                                   m_turns = *listed;
                               m_first = {m_turns.size(), 0};
                               readEarlierPage([this](const QJsonArray &items) {
                                   m_loading = false;
                                   m_bridge->showReset(hasEarlier());
                                   m_bridge->showAppended(items);
                                   replayPending();
                               });
                           });
}

void TranscriptView::readEarlierPage(std::function<void(const QJsonArray &)> show)
{
    QStringList ids;
    ids.reserve(m_turns.size());
    for (const turns::TurnRecord &turn : std::as_const(m_turns))
        ids << turn.id;
    m_workspace.topicPageBefore(
        ids, m_first, {turnsPerPage, eventsPerPage}, this,
        [this, showing = m_showing, show = std::move(show)](const turns::TopicPage &page) {
            if (showing != m_showing)
                return;
            m_first = page.first;
            show(pageItems(page));
        });
}

QJsonArray TranscriptView::pageItems(const turns::TopicPage &page)
{
    QJsonArray items;
    for (const turns::TopicSlice &slice : page.slices) {
        const turns::TurnRecord &turn = m_turns[slice.turn];
        if (slice.error) {
            // Nothing earlier can be shown; say so where it is missing.
            items.append(QJsonObject{
                {QStringLiteral("type"), QStringLiteral("error")},
                {QStringLiteral("turn"), turn.id},
                {QStringLiteral("text"),
                 tr("Earlier events could not be read: %1").arg(slice.error->message)}});
            continue;
        }
        if (slice.fromStart)
            items.append(promptItem(turn));
        for (const QJsonValue &value : transcriptItems(slice.events))
            items.append(value);
        if (slice.toEnd) {
            m_pageLastSeq.insert(turn.id, slice.events.isEmpty() ? 0 : slice.events.last().seq);
            if (turns::isTerminal(turn.state)) {
                items.append(footerItem(turn));
                m_changes->read(turn);
            }
        }
    }
    return items;
}

void TranscriptView::replayPending()
{
    for (const std::function<void()> &report : std::exchange(m_pending, {}))
        report();
}

void TranscriptView::showEarlier()
{
    if (!hasEarlier() || m_loading || m_readingEarlier)
        return;
    m_readingEarlier = true;
    readEarlierPage([this](const QJsonArray &items) {
        m_readingEarlier = false;
        m_bridge->showPrepended(items, hasEarlier());
    });
}

void TranscriptView::addTurn(const turns::TurnRecord &turn)
{
    if (turn.folder != m_folder || turn.topic != m_topic)
        return;
    if (m_loading) {
        m_pending << [this, turn] { addTurn(turn); };
        return;
    }
    // Queued before the topic's turns were read: on the page already.
    for (const turns::TurnRecord &shown : std::as_const(m_turns)) {
        if (shown.id == turn.id)
            return;
    }
    m_turns.append(turn);
    m_bridge->showAppended(QJsonArray{promptItem(turn)});
}

void TranscriptView::addEvents(const QList<turns::TurnEventRecord> &events)
{
    if (events.isEmpty())
        return;
    if (m_loading) {
        // Those stored before the page was read are on it.
        m_pending << [this, events] {
            const qint64 shown = m_pageLastSeq.value(events.first().turn, 0);
            QList<turns::TurnEventRecord> newer;
            std::copy_if(
                events.begin(), events.end(), std::back_inserter(newer),
                [shown](const turns::TurnEventRecord &event) { return event.seq > shown; });
            addEvents(newer);
        };
        return;
    }
    for (qsizetype index = m_turns.size() - 1; index >= 0; --index) {
        if (m_turns[index].id == events.first().turn) {
            m_bridge->showAppended(transcriptItems(events));
            return;
        }
    }
}

void TranscriptView::endTurn(const turns::TurnRecord &turn)
{
    if (m_loading) {
        m_pending << [this, turn] { endTurn(turn); };
        return;
    }
    for (qsizetype index = m_turns.size() - 1; index >= 0; --index) {
        if (m_turns[index].id == turn.id) {
            // Read ended: the page has its footer already.
            if (turns::isTerminal(m_turns[index].state))
                return;
            m_turns[index] = turn;
            m_bridge->showAppended(QJsonArray{footerItem(turn)});
            m_changes->read(turn);
            return;
        }
    }
}

qsizetype TranscriptView::shownTurn(const QString &turnId) const
{
    for (qsizetype index = m_turns.size() - 1; index >= m_first.turn; --index) {
        if (m_turns[index].id == turnId)
            return index;
    }
    return -1;
}

void TranscriptView::changesRecorded(const QString &turnId)
{
    if (m_loading) {
        m_pending << [this, turnId] { changesRecorded(turnId); };
        return;
    }
    const qsizetype index = shownTurn(turnId);
    if (index >= 0 && turns::isTerminal(m_turns[index].state))
        m_changes->read(m_turns[index]);
}

void TranscriptView::showChanges(const QJsonObject &item)
{
    // Read for a topic since left, or a turn no longer on the page: dropped.
    if (shownTurn(item.value(QStringLiteral("turn")).toString()) >= 0)
        m_bridge->showAppended(QJsonArray{item});
}

void TranscriptView::showFindBar()
{
    m_findBar->show();
    m_findText->setFocus();
    m_findText->selectAll();
}

void TranscriptView::find(bool backward)
{
    m_page->findText(m_findText->text(),
                     backward ? QWebEnginePage::FindBackward : QWebEnginePage::FindFlags());
}

void TranscriptView::markdown(std::function<void(const QString &)> done)
{
    // The whole topic, also what is not on the page yet.
    const QList<turns::TurnRecord> shown = m_turns;
    QStringList ids;
    for (const turns::TurnRecord &turn : shown)
        ids << turn.id;
    m_workspace.turnsEvents(
        ids, this,
        [this, shown, done = std::move(done)](const QList<QList<turns::TurnEventRecord>> &events) {
            // Written on a worker too: a long topic is a long text.
            runOnWorker(
                this, [shown, events] { return transcriptMarkdown(shown, events); }, done);
        });
}

void TranscriptView::copyAsMarkdown()
{
    markdown([](const QString &text) { QApplication::clipboard()->setText(text); });
}

} // namespace arizuko::desktop
