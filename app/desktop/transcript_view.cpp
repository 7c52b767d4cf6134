#include "transcript_view.h"

#include "transcript_bridge.h"
#include "transcript_items.h"
#include "transcript_page.h"
#include "turn_changes_reader.h"
#include "turn_records/turn_records.h"
#include "turns/turn_event_slice.h"

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
#include <limits>

namespace arizuko::desktop {

TranscriptView::TranscriptView(store::Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    // Also what links web_view_compositing.cpp, whose choice runs as the
    // program loads, into every program that shows a transcript.
    , m_compositing(webViewCompositing())
    , m_view(new QWebEngineView(this))
    , m_page(new TranscriptPage(m_view))
    , m_channel(new QWebChannel(m_page))
    , m_bridge(new TranscriptBridge(m_channel))
    , m_changes(new TurnChangesReader(store, this))
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
    if (!folder.isEmpty() && !topic.isEmpty()) {
        if (const auto listed = turns::TurnRecords(m_store).ofTopic(folder, topic))
            m_turns = *listed;
    }
    m_firstShown = m_turns.size();
    m_firstSeq = 0;
    const QJsonArray items = takeEarlierPage();
    m_bridge->showReset(hasEarlier());
    m_bridge->showAppended(items);
}

bool TranscriptView::hasEarlier() const
{
    return m_firstShown > 0 || m_firstSeq > 0;
}

QJsonArray TranscriptView::takeEarlierPage()
{
    QList<QJsonArray> slices; // newest first
    int events = 0;
    int turnsTaken = 0;
    while (hasEarlier() && events < eventsPerPage && turnsTaken < turnsPerPage) {
        const bool fresh = m_firstSeq == 0;
        if (fresh) {
            --m_firstShown;
            m_firstSeq = std::numeric_limits<qint64>::max();
            ++turnsTaken;
        }
        const turns::TurnRecord &turn = m_turns[m_firstShown];
        const int budget = eventsPerPage - events;
        // One more than fits tells whether the turn's start is reached.
        auto read = turns::eventsBefore(m_store, turn.id, m_firstSeq, budget + 1);
        QJsonArray slice;
        if (!read) {
            // Nothing earlier can be shown; say so where it is missing.
            slice.append(QJsonObject{
                {QStringLiteral("type"), QStringLiteral("error")},
                {QStringLiteral("turn"), turn.id},
                {QStringLiteral("text"),
                 tr("Earlier events could not be read: %1").arg(read.error().message)}});
            slices.prepend(slice);
            m_firstShown = 0;
            m_firstSeq = 0;
            break;
        }
        const bool reachedStart = read->size() <= budget;
        if (reachedStart)
            slice.append(promptItem(turn));
        else
            read->removeFirst();
        for (const QJsonValue &value : transcriptItems(*read))
            slice.append(value);
        if (fresh && turns::isTerminal(turn.state)) {
            slice.append(footerItem(turn));
            m_changes->read(turn);
        }
        events += int(read->size());
        m_firstSeq = reachedStart ? 0 : read->first().seq;
        slices.prepend(slice);
    }
    QJsonArray items;
    for (const QJsonArray &slice : std::as_const(slices)) {
        for (const QJsonValue &value : slice)
            items.append(value);
    }
    return items;
}

void TranscriptView::showEarlier()
{
    if (!hasEarlier())
        return;
    const QJsonArray items = takeEarlierPage();
    m_bridge->showPrepended(items, hasEarlier());
}

void TranscriptView::addTurn(const turns::TurnRecord &turn)
{
    if (turn.folder != m_folder || turn.topic != m_topic)
        return;
    m_turns.append(turn);
    m_bridge->showAppended(QJsonArray{promptItem(turn)});
}

void TranscriptView::addEvents(const QList<turns::TurnEventRecord> &events)
{
    if (events.isEmpty())
        return;
    for (qsizetype index = m_turns.size() - 1; index >= 0; --index) {
        if (m_turns[index].id == events.first().turn) {
            m_bridge->showAppended(transcriptItems(events));
            return;
        }
    }
}

void TranscriptView::endTurn(const turns::TurnRecord &turn)
{
    for (qsizetype index = m_turns.size() - 1; index >= 0; --index) {
        if (m_turns[index].id == turn.id) {
            m_turns[index] = turn;
            m_bridge->showAppended(QJsonArray{footerItem(turn)});
            m_changes->read(turn);
            return;
        }
    }
}

qsizetype TranscriptView::shownTurn(const QString &turnId) const
{
    for (qsizetype index = m_turns.size() - 1; index >= m_firstShown; --index) {
        if (m_turns[index].id == turnId)
            return index;
    }
    return -1;
}

void TranscriptView::changesRecorded(const QString &turnId)
{
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

QString TranscriptView::markdown() const
{
    // The whole topic, also what is not on the page yet.
    QList<QList<turns::TurnEventRecord>> events(m_turns.size());
    turns::TurnRecords records(m_store);
    for (qsizetype index = 0; index < m_turns.size(); ++index) {
        if (const auto read = records.events(m_turns[index].id))
            events[index] = *read;
    }
    return transcriptMarkdown(m_turns, events);
}

void TranscriptView::copyAsMarkdown() const
{
    QApplication::clipboard()->setText(markdown());
}

} // namespace arizuko::desktop
