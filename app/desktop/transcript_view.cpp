#include "transcript_view.h"

#include "transcript_bridge.h"
#include "transcript_items.h"
#include "transcript_page.h"

#include "turns/turn_records.h"

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
namespace {

QJsonArray turnItems(const turns::TurnRecord &turn, const QList<turns::TurnEventRecord> &events)
{
    QJsonArray items{promptItem(turn)};
    for (const QJsonValue &value : transcriptItems(events))
        items.append(value);
    if (turns::isTerminal(turn.state))
        items.append(footerItem(turn));
    return items;
}

} // namespace

TranscriptView::TranscriptView(store::Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_view(new QWebEngineView(this))
    , m_page(new TranscriptPage(m_view))
    , m_channel(new QWebChannel(m_page))
    , m_bridge(new TranscriptBridge(m_channel))
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
    m_events.clear();
    if (!folder.isEmpty() && !topic.isEmpty()) {
        turns::TurnRecords records(m_store);
        if (const auto listed = records.ofTopic(folder, topic))
            m_turns = *listed;
        // Only the turns on the page have their events read; earlier ones
        // are read when asked for.
        m_events.resize(m_turns.size());
    }
    m_hidden = std::max<qsizetype>(0, m_turns.size() - turnsPerPage);
    m_bridge->showReset(m_hidden > 0);
    QJsonArray items;
    turns::TurnRecords records(m_store);
    for (qsizetype index = m_hidden; index < m_turns.size(); ++index) {
        if (const auto events = records.events(m_turns[index].id))
            m_events[index] = *events;
        for (const QJsonValue &value : turnItems(m_turns[index], m_events[index]))
            items.append(value);
    }
    m_bridge->showAppended(items);
}

void TranscriptView::showEarlier()
{
    if (m_hidden == 0)
        return;
    const qsizetype from = std::max<qsizetype>(0, m_hidden - turnsPerPage);
    QJsonArray items;
    turns::TurnRecords records(m_store);
    for (qsizetype index = from; index < m_hidden; ++index) {
        if (const auto events = records.events(m_turns[index].id))
            m_events[index] = *events;
        for (const QJsonValue &value : turnItems(m_turns[index], m_events[index]))
            items.append(value);
    }
    m_hidden = from;
    m_bridge->showPrepended(items, m_hidden > 0);
}

void TranscriptView::addTurn(const turns::TurnRecord &turn)
{
    if (turn.folder != m_folder || turn.topic != m_topic)
        return;
    m_turns.append(turn);
    m_events.append(QList<turns::TurnEventRecord>());
    m_bridge->showAppended(QJsonArray{promptItem(turn)});
}

void TranscriptView::addEvents(const QList<turns::TurnEventRecord> &events)
{
    if (events.isEmpty())
        return;
    for (qsizetype index = m_turns.size() - 1; index >= 0; --index) {
        if (m_turns[index].id == events.first().turn) {
            m_events[index].append(events);
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
            return;
        }
    }
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
    // Turns not on the page yet are read for the copy.
    QList<QList<turns::TurnEventRecord>> events = m_events;
    turns::TurnRecords records(m_store);
    for (qsizetype index = 0; index < m_hidden; ++index) {
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
