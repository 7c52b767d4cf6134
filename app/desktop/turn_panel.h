#pragma once

// The selected topic's latest turn, live: its phase timeline with timings,
// the VM's accelerator (and why), name, subnet and proxy port, one row per
// proxy decision with "Allow for this folder…" on a denied one, and the
// guest's serial console.

#include "host/host_status.h"
#include "turn_records/turn_record.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTabWidget;
class QTreeWidget;

namespace arizuko::store {
class Store;
}
namespace arizuko::models {
class NetworkDecisionModel;
}

namespace arizuko::desktop {

class TurnPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit TurnPanel(store::Store &store, QWidget *parent = nullptr);

    // Adds a tab after the turn's own (the machine check).
    void addTab(QWidget *page, const QString &label);
    void setAccelerator(const host::AcceleratorChoice &choice);
    // Shows this turn (none: an empty record). Another turn's stored
    // network decisions are read on a worker, a page at a time.
    void showTurn(const turns::TurnRecord &turn);
    QString turnId() const { return m_turn.id; }
    // The engine reported a turn's phase: shown if it is the shown turn.
    void updateTurn(const turns::TurnRecord &turn);
    // Events of the shown turn as the engine reports them.
    void addEvents(const QList<turns::TurnEventRecord> &events);

    models::NetworkDecisionModel *networkModel() const { return m_networkModel; }
    QTableView *networkTable() const { return m_network; }
    QPushButton *allowButton() const { return m_allow; }
    QTabWidget *tabs() const { return m_tabs; }

signals:
    void ruleAdded(const QString &folder, const QString &host);
    void ruleFailed(const QString &message);

private:
    // Reads the shown turn's stored events after `afterSeq` on a worker,
    // one page, and its network decisions into the table; then the next.
    void readDecisions(quint64 reading, qint64 afterSeq);
    // Adds the network decisions among `events` not shown yet, in order.
    void addDecisions(const QList<turns::TurnEventRecord> &events);
    void refreshFacts();
    void updateAllowButton();
    void confirmAllow();
    void readConsole();

    store::Store &m_store;
    turns::TurnRecord m_turn;
    QTabWidget *m_tabs;
    QTreeWidget *m_timeline;
    QLabel *m_accelerator;
    QLabel *m_facts;
    QTableView *m_network;
    models::NetworkDecisionModel *m_networkModel;
    QPushButton *m_allow;
    QPlainTextEdit *m_console;
    // Which reading of the stored decisions is current (a page of a turn
    // no longer shown is dropped); the last decision shown; the engine's
    // events that came while the stored ones were still being read.
    quint64 m_reading = 0;
    bool m_decisionsRead = true;
    qint64 m_lastDecisionSeq = 0;
    QList<turns::TurnEventRecord> m_early;
    QTimer m_consoleTimer;
    qint64 m_consoleOffset = 0;
};

} // namespace arizuko::desktop
