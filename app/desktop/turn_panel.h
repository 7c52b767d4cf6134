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
    // Shows this turn (none: an empty record), reading what is stored of it.
    void showTurn(const turns::TurnRecord &turn);
    QString turnId() const { return m_turn.id; }
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
    QTimer m_consoleTimer;
    qint64 m_consoleOffset = 0;
};

} // namespace arizuko::desktop
