#pragma once

// The selected topic's latest turn, live: its phase timeline with timings,
// the VM's accelerator (and why), name, subnet and proxy port, one row per
// proxy decision with "Allow for this folder…" on a denied one, and the
// guest's serial console. A long turn's decisions are shown by pages: the
// newest first, an earlier one on request. The Network tab opens the egress
// ledger (LedgerViewer) of the turn, its folder or every folder, with its
// filters and Export….

#include "host/host_status.h"
#include "turn_records/turn_record.h"

#include <QTimer>
#include <QWidget>
#include <functional>

class QLabel;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTabWidget;
class QTreeWidget;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class NetworkDecisionModel;
}

namespace arizuko::desktop {

class LedgerViewer;

class TurnPanel final : public QWidget
{
    Q_OBJECT

public:
    // A page: at most this many of the turn's network events (the proxy's
    // decisions and closes).
    static constexpr int networkEventsPerPage = 2000;

    explicit TurnPanel(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Adds a tab after the turn's own (the machine check).
    void addTab(QWidget *page, const QString &label);
    void setAccelerator(const host::AcceleratorChoice &choice);
    // Shows this turn (none: an empty record). Another turn's stored
    // network decisions are read on a worker: the newest page.
    void showTurn(const turns::TurnRecord &turn);
    QString turnId() const { return m_turn.id; }
    // The engine reported a turn's phase: shown if it is the shown turn.
    void updateTurn(const turns::TurnRecord &turn);
    // Events of the shown turn as the engine reports them.
    void addEvents(const QList<turns::TurnEventRecord> &events);

    models::NetworkDecisionModel *networkModel() const { return m_networkModel; }
    QTableView *networkTable() const { return m_network; }
    QPushButton *allowButton() const { return m_allow; }
    QPushButton *ledgerButton() const { return m_ledger; }
    // Opens the egress ledger of the shown turn (a window of its own).
    LedgerViewer *openLedger();
    // Shown while the turn has network events before the page shown.
    QPushButton *earlierButton() const { return m_earlier; }
    QTabWidget *tabs() const { return m_tabs; }

signals:
    void ruleAdded(const QString &folder, const QString &host);
    void ruleFailed(const QString &message);
    // A page of the shown turn's stored network events is in the table.
    void pageShown();

private:
    // Reads the page of the shown turn's network events before `beforeSeq`
    // on a worker, then `show(events)` unless another turn is shown by then;
    // notes whether there are earlier ones.
    void readPage(qint64 beforeSeq,
                  std::function<void(const QList<turns::TurnEventRecord> &)> show);
    void showEarlier();
    void updateEarlierButton();
    // Adds the network decisions among `events` not shown yet, in order.
    void addDecisions(const QList<turns::TurnEventRecord> &events);
    void refreshFacts();
    void updateAllowButton();
    void confirmAllow();
    void readConsole();

    engine::Workspace &m_workspace;
    turns::TurnRecord m_turn;
    QTabWidget *m_tabs;
    QTreeWidget *m_timeline;
    QLabel *m_accelerator;
    QLabel *m_facts;
    QTableView *m_network;
    models::NetworkDecisionModel *m_networkModel;
    QPushButton *m_allow;
    QPushButton *m_earlier;
    QPushButton *m_ledger;
    QPlainTextEdit *m_console;
    // Which reading of the stored decisions is current (a page of a turn
    // no longer shown is dropped); the last decision shown and the first
    // (0: none before it); whether a page is being read; the engine's
    // events that came while the newest page was still being read.
    quint64 m_reading = 0;
    bool m_decisionsRead = true;
    qint64 m_lastDecisionSeq = 0;
    qint64 m_firstDecisionSeq = 0;
    bool m_readingPage = false;
    QList<turns::TurnEventRecord> m_early;
    QTimer m_consoleTimer;
    qint64 m_consoleOffset = 0;
};

} // namespace arizuko::desktop
