#pragma once

// The allowlist of one folder, Little Snitch style: its own rules beside the
// inherited ones (each naming its folder), what a typed rule (a host, and
// methods and a path for a rule by request) would be stored as before it is
// added or put in place of an own rule, a host and a request tested against
// the proxy's own matching, and the lists the folder's next turn starts its
// proxy with.

#include "core/result.h"
#include "policy/network_rule.h"

#include <QDialog>
#include <optional>

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
    // The rule the form holds, in its stored form, or why it cannot be one.
    Result<policy::NetworkRule> typedRule() const;
    void validate();
    // Adds the typed rule, or, while an own rule is being edited, puts it
    // in that rule's place.
    void addRule();
    void removeRule();
    // Fills the form with the selected own rule and turns Add into Save;
    // pressed again (Cancel edit) it empties the form.
    void toggleEdit();
    void stopEditing();
    void updateRowButtons();
    void testHost();
    void testRequest();
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
    QLineEdit *m_methods;
    QLineEdit *m_path;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QLabel *m_validation;
    QLineEdit *m_testHost;
    QLabel *m_verdict;
    QComboBox *m_requestMethod;
    QLineEdit *m_requestHost;
    QLineEdit *m_requestPath;
    QLabel *m_requestVerdict;
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
    QString m_unlistedFolder; // whose setting the fields show
    int m_unlistedSaves = 0;  // in flight
    bool m_unlistedReadAfterSave = false;
    bool m_adding = false;
    // The own rule the form replaces when saved; none: the form adds.
    std::optional<policy::NetworkRule> m_editing;
    qint64 m_chosenRule = 0; // the id of the row chosen before a reload
};

} // namespace arizuko::desktop
