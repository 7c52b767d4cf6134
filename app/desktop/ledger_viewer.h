#pragma once

// The egress ledger in the window, opened from the turn panel's Network
// tab: every request the proxies, model gateways and connectors decided,
// for the shown turn, its folder or every folder, allowed or denied, since
// a time; newest first, a page read on a worker whenever the table scrolls
// to its end. Export… writes what the filter shows as arizukoctl network
// log does (ledger/ledger_export.h), on a worker, with progress and Cancel.

#include "core/result.h"
#include "ledger/ledger.h"
#include "ledger/ledger_format.h"

#include <QDialog>
#include <QTimer>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QProgressDialog;
class QTableView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::ledger {
struct ExportProgress;
}
namespace arizuko::models {
class LedgerModel;
}

namespace arizuko::desktop {

class LedgerViewer final : public QDialog
{
    Q_OBJECT

public:
    enum class Scope
    {
        Turn,
        Folder,
        Everything
    };

    // `turn` and `folder` are the shown turn's (an empty turn: none shown).
    LedgerViewer(engine::Workspace &workspace, const QString &turn, const QString &turnName,
                 const QString &folder, QWidget *parent = nullptr);
    ~LedgerViewer() override;

    models::LedgerModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    // The filter as the choosers say now.
    ledger::LedgerFilter filter() const;
    // Re-reads with it; the rows follow once read.
    void applyFilter();
    // Asks for a file and its format, then exports to it.
    void chooseExportFile();
    // Exports the rows the filter matches to path, on a worker, with a
    // progress dialog whose Cancel stops it (nothing is left at path).
    void exportTo(const QString &path, ledger::LedgerFormat format);
    QProgressDialog *exportProgress() const { return m_progress; }

signals:
    // An export ended: written, cancelled or failed; `message` says which.
    void exportFinished(bool written, const QString &message);

private:
    QString filterText() const;
    void showCount();
    void showExportProgress();
    void finishExport(const QString &path, const Result<qint64> &result);

    engine::Workspace &m_workspace;
    QString m_turn;
    QString m_folder;
    models::LedgerModel *m_model;
    QComboBox *m_scope;
    QComboBox *m_decision;
    QComboBox *m_since;
    QTableView *m_table;
    QLabel *m_status;
    QPushButton *m_export;
    QProgressDialog *m_progress = nullptr;
    std::shared_ptr<ledger::ExportProgress> m_exporting;
    QTimer m_progressTimer;
};

} // namespace arizuko::desktop
