#pragma once

// The audit log: who changed which rule, grant, secret or folder, and every
// tool decision, filtered by folder, kind and time, and live: new rows
// (from this window or arizukoctl) appear within a second.

#include <QDialog>
#include <QTimer>

class QComboBox;
class QLabel;
class QTableView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class AuditLogModel;
}

namespace arizuko::desktop {

class AuditLogViewer final : public QDialog
{
    Q_OBJECT

public:
    static constexpr int pollIntervalMs = 1000;

    AuditLogViewer(engine::Workspace &workspace, const QString &folder, QWidget *parent = nullptr);

    models::AuditLogModel *model() const { return m_model; }
    // Re-reads with the filters as chosen now; the rows follow once read.
    void applyFilter();

private:
    void loadFolders(const QString &select);
    void showCount();

    engine::Workspace &m_workspace;
    models::AuditLogModel *m_model;
    QComboBox *m_folder;
    QComboBox *m_kind;
    QComboBox *m_since;
    QTableView *m_table;
    QLabel *m_status;
    QTimer m_poll;
};

} // namespace arizuko::desktop
