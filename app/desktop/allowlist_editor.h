#pragma once

// The allowlist of one folder, Little Snitch style: its own rules beside the
// inherited ones (each naming its folder), what a typed host would be stored
// as before it is added, a host tested against the proxy's own matching, and
// the lists the folder's next turn starts its proxy with.

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class NetworkRuleModel;
}

namespace arizuko::desktop {

class AllowlistEditor final : public QDialog
{
    Q_OBJECT

public:
    // Changes by other processes (arizukoctl) show at once.
    AllowlistEditor(engine::Workspace &workspace, const QString &folder, QWidget *parent = nullptr);
    ~AllowlistEditor() override;

    models::NetworkRuleModel *model() const { return m_model; }

private:
    void loadFolders(const QString &select);
    void selectFolder();
    void reload();
    void validate();
    void addRule();
    void removeRule();
    void testHost();
    void showEffective();
    void setStatus(const QString &text, bool error);
    // The folder's setting for hosts on no allow entry: read, and saved on
    // each change the user makes.
    void loadUnlisted();
    void saveUnlisted();
    // How many days the folder's egress ledger rows are kept: read, and
    // saved (audited) when the user has changed it.
    void loadRetention();
    void saveRetention();

    engine::Workspace &m_workspace;
    models::NetworkRuleModel *m_model;
    QComboBox *m_folder;
    QTableView *m_table;
    QLineEdit *m_host;
    QComboBox *m_kind;
    QPushButton *m_add;
    QPushButton *m_remove;
    QLabel *m_validation;
    QLineEdit *m_testHost;
    QLabel *m_verdict;
    QPlainTextEdit *m_effective;
    QLabel *m_status;
    QComboBox *m_unlisted;
    QSpinBox *m_askTimeout;
    QSpinBox *m_retention;
    quint64 m_retentionLoads = 0;
    int m_retentionStored = 0; // as last read or saved
    bool m_loadingUnlisted = false;
    // Only the newest load may fill the setting: an older one, still in
    // flight, read the store before a later save and would undo it.
    quint64 m_unlistedLoads = 0;
    bool m_adding = false;
};

} // namespace arizuko::desktop
