#pragma once

// What a folder's agent may do through tools: the grants that apply to it,
// presets for the common ones, a preview of the tools its next turn will see
// (each with the grant that allows it or the deny that blocks it), and broad
// grants (`*`, `egress`, `**`, wildcard principals) added only once confirmed.

#include "policy/grant.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class EffectiveToolModel;
class GrantModel;
}

namespace arizuko::desktop {

class GrantsEditor final : public QDialog
{
    Q_OBJECT

public:
    // Changes by other processes (arizukoctl) show at once.
    GrantsEditor(engine::Workspace &workspace, const QString &folder, QWidget *parent = nullptr);
    ~GrantsEditor() override;

    models::GrantModel *model() const { return m_model; }
    models::EffectiveToolModel *tools() const { return m_tools; }

private:
    void loadFolders(const QString &select);
    void selectFolder();
    void reload();
    void applyPreset(int index);
    policy::Grant typedGrant(QString *error) const;
    void validate();
    void addGrant();
    void removeGrant();
    void setStatus(const QString &text, bool error);

    engine::Workspace &m_workspace;
    models::GrantModel *m_model;
    models::EffectiveToolModel *m_tools;
    QComboBox *m_folder;
    QTableView *m_table;
    QComboBox *m_preset;
    QLineEdit *m_principal;
    QLineEdit *m_action;
    QLineEdit *m_scope;
    QComboBox *m_effect;
    QLineEdit *m_params;
    QCheckBox *m_grantOption;
    QLabel *m_validation;
    QCheckBox *m_confirmBroad;
    QPushButton *m_add;
    QPushButton *m_remove;
    QTableView *m_toolView;
    QLabel *m_toolsTitle;
    QLabel *m_status;
    bool m_adding = false;
};

} // namespace arizuko::desktop
