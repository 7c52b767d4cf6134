#include "turn_panel.h"

#include "engine/workspace.h"
#include "ledger_viewer.h"
#include "models/network_decision_model.h"
#include "models/turn_list_model.h"
#include "turn_error_text.h"

#include <QDateTime>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <limits>

namespace arizuko::desktop {
namespace {

constexpr int consolePollMs = 500;
// The console tab keeps the tail of a long boot log.
constexpr int consoleMaxBlocks = 5000;

bool isNetwork(const turns::TurnEventRecord &event)
{
    return event.kind == QLatin1String("network");
}

QList<QJsonObject> jsonOf(const QList<turns::TurnEventRecord> &events)
{
    QList<QJsonObject> lines;
    lines.reserve(events.size());
    for (const turns::TurnEventRecord &event : events)
        lines << event.json;
    return lines;
}

} // namespace

TurnPanel::TurnPanel(engine::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_tabs(new QTabWidget(this))
    , m_timeline(new QTreeWidget(this))
    , m_accelerator(new QLabel(this))
    , m_facts(new QLabel(this))
    , m_network(new QTableView(this))
    , m_networkModel(new models::NetworkDecisionModel(this))
    , m_allow(new QPushButton(tr("&Allow for this folder\u2026"), this))
    , m_earlier(new QPushButton(tr("Show ea&rlier requests"), this))
    , m_ledger(new QPushButton(tr("Egress ledger and e&xport\u2026"), this))
    , m_console(new QPlainTextEdit(this))
{
    m_timeline->setObjectName(QStringLiteral("phaseTimeline"));
    m_timeline->setAccessibleName(tr("Phase timeline"));
    m_timeline->setHeaderLabels({tr("Phase"), tr("At"), tr("Took")});
    m_timeline->setRootIsDecorated(false);
    m_accelerator->setObjectName(QStringLiteral("turnAccelerator"));
    m_accelerator->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setObjectName(QStringLiteral("turnFacts"));
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setTextFormat(Qt::PlainText);
    // A long error wraps in the panel's width (a path too long for a line
    // is cut; the transcript and the tooltip have it whole) and never
    // widens the panel, or the window past the screen.
    for (QLabel *label : {m_accelerator, m_facts}) {
        label->setWordWrap(true);
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }
    auto *turnPage = new QWidget(this);
    auto *turnLayout = new QVBoxLayout(turnPage);
    turnLayout->addWidget(m_timeline, 1);
    turnLayout->addWidget(m_accelerator);
    turnLayout->addWidget(m_facts);

    m_network->setObjectName(QStringLiteral("networkTable"));
    m_network->setAccessibleName(tr("Network decisions"));
    m_network->setModel(m_networkModel);
    m_network->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_network->setSelectionMode(QAbstractItemView::SingleSelection);
    m_network->horizontalHeader()->setStretchLastSection(true);
    m_network->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_network->setWordWrap(false);
    m_network->verticalHeader()->hide();
    m_allow->setObjectName(QStringLiteral("allowHostButton"));
    m_allow->setAccessibleName(tr("Allow the selected denied host for this folder"));
    m_allow->setEnabled(false);
    // A long turn's table holds its newest page; the earlier ones come on
    // request, a page at a time, each a short read on a worker and a short
    // insert here.
    m_earlier->setObjectName(QStringLiteral("earlierRequestsButton"));
    m_earlier->setAccessibleName(tr("Show the turn's earlier network requests"));
    m_earlier->hide();
    connect(m_earlier, &QPushButton::clicked, this, &TurnPanel::showEarlier);
    m_ledger->setObjectName(QStringLiteral("ledgerButton"));
    m_ledger->setAccessibleName(
        tr("Open the egress ledger of this turn, its folder or every folder, to filter and "
           "export it"));
    connect(m_ledger, &QPushButton::clicked, this, &TurnPanel::openLedger);
    auto *networkPage = new QWidget(this);
    auto *networkLayout = new QVBoxLayout(networkPage);
    networkLayout->addWidget(m_network, 1);
    auto *networkButtons = new QHBoxLayout;
    networkButtons->addWidget(m_earlier);
    networkButtons->addWidget(m_ledger);
    networkButtons->addStretch(1);
    networkButtons->addWidget(m_allow);
    networkLayout->addLayout(networkButtons);
    connect(m_network->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TurnPanel::updateAllowButton);
    connect(m_allow, &QPushButton::clicked, this, &TurnPanel::confirmAllow);

    m_console->setObjectName(QStringLiteral("consoleLog"));
    m_console->setAccessibleName(tr("Serial console"));
    m_console->setReadOnly(true);
    m_console->setMaximumBlockCount(consoleMaxBlocks);
    m_console->setFont(QFont(QStringLiteral("monospace")));
    m_consoleTimer.setInterval(consolePollMs);
    connect(&m_consoleTimer, &QTimer::timeout, this, &TurnPanel::readConsole);

    m_tabs->setObjectName(QStringLiteral("turnTabs"));
    m_tabs->addTab(turnPage, tr("T&urn"));
    m_tabs->addTab(networkPage, tr("&Network"));
    m_tabs->addTab(m_console, tr("C&onsole"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    showTurn({});
}

void TurnPanel::addTab(QWidget *page, const QString &label)
{
    m_tabs->addTab(page, label);
}

void TurnPanel::setAccelerator(const host::AcceleratorChoice &choice)
{
    m_accelerator->setText(
        tr("Accelerator: %1 \u2014 %2")
            .arg(host::acceleratorName(choice.accelerator).toUpper(), choice.reason));
}

void TurnPanel::showTurn(const turns::TurnRecord &turn)
{
    const bool other = turn.id != m_turn.id;
    m_turn = turn;
    if (other) {
        m_networkModel->clear();
        m_console->clear();
        m_consoleOffset = 0;
        ++m_reading;
        m_early.clear();
        m_lastDecisionSeq = 0;
        m_firstDecisionSeq = 0;
        m_readingPage = false;
        m_decisionsRead = turn.id.isEmpty();
        updateEarlierButton();
        if (!turn.id.isEmpty()) {
            readPage(std::numeric_limits<qint64>::max(),
                     [this](const QList<turns::TurnEventRecord> &events) {
                         addDecisions(events);
                         m_decisionsRead = true;
                         addDecisions(std::exchange(m_early, {}));
                     });
        }
    }
    refreshFacts();
    readConsole();
    if (!turn.id.isEmpty() && !turns::isTerminal(turn.state))
        m_consoleTimer.start();
    else
        m_consoleTimer.stop();
}

void TurnPanel::updateTurn(const turns::TurnRecord &turn)
{
    if (!turn.id.isEmpty() && turn.id == m_turn.id)
        showTurn(turn);
}

void TurnPanel::readPage(qint64 beforeSeq,
                         std::function<void(const QList<turns::TurnEventRecord> &)> show)
{
    m_readingPage = true;
    // One more than a page tells whether there are earlier ones.
    m_workspace.networkEventsBefore(m_turn.id, beforeSeq, networkEventsPerPage + 1, this,
                                    [this, reading = m_reading, show = std::move(show)](
                                        Result<QList<turns::TurnEventRecord>> events) {
                                        if (reading != m_reading)
                                            return; // another turn is shown now
                                        m_readingPage = false;
                                        // A store that cannot be read leaves the table with what it
                                        // has (and an earlier page to ask for again).
                                        if (!events)
                                            events = QList<turns::TurnEventRecord>();
                                        else if (events->size() <= networkEventsPerPage)
                                            m_firstDecisionSeq = 0;
                                        else {
                                            events->removeFirst();
                                            m_firstDecisionSeq = events->first().seq;
                                        }
                                        show(*events);
                                        updateEarlierButton();
                                        emit pageShown();
                                    });
}

void TurnPanel::showEarlier()
{
    if (m_firstDecisionSeq <= 0 || m_readingPage)
        return;
    readPage(m_firstDecisionSeq, [this](const QList<turns::TurnEventRecord> &events) {
        m_networkModel->prependDecisions(jsonOf(events));
    });
}

void TurnPanel::updateEarlierButton()
{
    const bool earlier = m_firstDecisionSeq > 0;
    // The keyboard's place is kept when the last page is in.
    if (!earlier && m_earlier->hasFocus())
        m_network->setFocus();
    m_earlier->setVisible(earlier);
}

void TurnPanel::addDecisions(const QList<turns::TurnEventRecord> &events)
{
    QList<QJsonObject> lines;
    for (const turns::TurnEventRecord &event : events) {
        if (isNetwork(event) && event.seq > m_lastDecisionSeq) {
            lines << event.json;
            m_lastDecisionSeq = event.seq;
        }
    }
    if (!lines.isEmpty())
        m_networkModel->addDecisions(lines);
}

void TurnPanel::addEvents(const QList<turns::TurnEventRecord> &events)
{
    if (events.isEmpty() || events.first().turn != m_turn.id)
        return;
    // Stored before they were reported: a page still to come holds them too.
    if (!m_decisionsRead)
        std::copy_if(events.begin(), events.end(), std::back_inserter(m_early), isNetwork);
    else
        addDecisions(events);
}

void TurnPanel::refreshFacts()
{
    m_timeline->clear();
    if (m_turn.id.isEmpty()) {
        m_facts->setText(tr("No turn in this topic yet."));
        m_facts->setToolTip({});
        return;
    }
    const QList<std::pair<QString, QString>> phases{
        {models::turnStateText(turns::TurnState::Queued), m_turn.queuedAt},
        {models::turnStateText(turns::TurnState::Preparing), m_turn.preparingAt},
        {models::turnStateText(turns::TurnState::Booting), m_turn.bootingAt},
        {models::turnStateText(turns::TurnState::Running), m_turn.runningAt},
        {models::turnStateText(turns::TurnState::Finishing), m_turn.finishingAt},
        {models::turnStateText(m_turn.state),
         turns::isTerminal(m_turn.state) ? m_turn.endedAt : QString()}};
    QDateTime previous;
    QTreeWidgetItem *last = nullptr;
    for (const auto &[name, at] : phases) {
        const QDateTime time = QDateTime::fromString(at, Qt::ISODateWithMs);
        if (!time.isValid())
            continue;
        if (last && previous.isValid())
            last->setText(2, tr("%1 s").arg(double(previous.msecsTo(time)) / 1000.0, 0, 'f', 1));
        last = new QTreeWidgetItem(
            m_timeline,
            {name, time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")), QString()});
        previous = time;
    }
    QString proxyPort = m_turn.proxyAddress.section(QLatin1Char(':'), -1);
    const QString error = turnErrorText(m_turn.errorCode, m_turn.error);
    m_facts->setToolTip(error);
    m_facts->setText(tr("Turn %1 (%2)\nVM: %3\nSubnet: %4\nProxy port: %5%6")
                         .arg(m_turn.name, models::turnStateText(m_turn.state),
                              m_turn.vmName.isEmpty() ? tr("not booted") : m_turn.vmName,
                              m_turn.subnet.isEmpty() ? tr("none yet") : m_turn.subnet,
                              proxyPort.isEmpty() ? tr("none yet") : proxyPort,
                              error.isEmpty() ? QString() : tr("\nError: %1").arg(error)));
}

void TurnPanel::updateAllowButton()
{
    const QModelIndexList rows = m_network->selectionModel()->selectedRows();
    m_allow->setEnabled(!rows.isEmpty() &&
                        rows.first().data(models::NetworkDecisionModel::AllowableRole).toBool());
}

void TurnPanel::confirmAllow()
{
    const QModelIndexList rows = m_network->selectionModel()->selectedRows();
    if (rows.isEmpty() || m_turn.folder.isEmpty())
        return;
    const QString host = rows.first().data(models::NetworkDecisionModel::HostRole).toString();
    const QString folder = m_turn.folder;
    // The exact rule and where it goes, before anything is written.
    auto *box =
        new QMessageBox(QMessageBox::Question, tr("Allow a host"),
                        tr("Add this network rule?\n\n    allow %1\n\nto the folder \"%2\". "
                           "The next turns of %2 and of its subfolders may reach %1 and its "
                           "subdomains through their proxy.")
                            .arg(host, folder),
                        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("allowRuleConfirmation"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Yes)->setText(tr("Add the rule"));
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, host, folder](int result) {
        if (result != QMessageBox::Yes)
            return;
        // Written on a worker: the window's thread never writes the store.
        m_workspace.allowHost(folder, host, this, [this, folder](const Result<QString> &added) {
            if (!added) {
                emit ruleFailed(added.error().message);
                return;
            }
            emit ruleAdded(folder, *added);
        });
    });
    box->open();
}

LedgerViewer *TurnPanel::openLedger()
{
    auto *viewer = new LedgerViewer(m_workspace, m_turn.id, m_turn.name, m_turn.folder, this);
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->show();
    return viewer;
}

void TurnPanel::readConsole()
{
    if (m_turn.id.isEmpty())
        return;
    QFile log(m_workspace.consoleLogPath(m_turn.id));
    if (!log.open(QIODevice::ReadOnly) || log.size() <= m_consoleOffset)
        return;
    log.seek(m_consoleOffset);
    // At most 256 KiB per tick, so a burst never stalls the window.
    const QByteArray chunk = log.read(256 * 1024);
    m_consoleOffset += chunk.size();
    m_console->appendPlainText(QString::fromUtf8(chunk).trimmed());
}

} // namespace arizuko::desktop
