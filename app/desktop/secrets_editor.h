#pragma once

// Secrets by name and scope: set or replace a value in a password field that
// is cleared as soon as the value is sealed, remove a name, bind a secret to
// hosts (or unbind it) so turns get only a placeholder, and where the master
// key lives. No value is ever read back; the editor has no way to.
// Opening the key store can wait seconds for an OS keyring, so every call
// runs on a worker.

#include "engine/workspace.h"

#include <QDialog>
#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace arizuko::models {
class SecretListModel;
}

namespace arizuko::desktop {

class SecretsEditor final : public QDialog
{
    Q_OBJECT

public:
    SecretsEditor(engine::Workspace &workspace, const QString &folder, QWidget *parent = nullptr);

    models::SecretListModel *model() const { return m_model; }
    // Ready to set `name`: the name filled in, the value field focused.
    void prepareFor(const QString &name);
    bool isBusy() const { return m_busy; }

signals:
    // A worker's answer is shown (the list re-read, or a refusal).
    void settled();

private:
    using Names = engine::Workspace::SecretNames;

    // One call at a time, its buttons off until the answer: false when one
    // is in flight already. The answer is shown by showNames, with `done`
    // said when the change it made (if any) went through.
    bool startCall();
    std::function<void(Names)> answer(const QString &done = {});
    void reload();
    void showNames(const Names &names, const QString &done);
    void validate();
    void setSecret();
    void removeSecret();
    // Opens the binding dialog for the chosen secret; its OK binds.
    void bindSecret();
    void unbindSecret();
    void updateRowButtons();

    engine::Workspace &m_workspace;
    models::SecretListModel *m_model;
    bool m_busy = false;
    // Set stays off until the folder chooser holds the folders: an empty
    // chooser would mean every folder.
    bool m_foldersShown = false;
    QLabel *m_keyStore;
    QTableView *m_table;
    QComboBox *m_folder;
    QLineEdit *m_name;
    QLineEdit *m_value;
    QLabel *m_validation;
    QPushButton *m_set;
    QPushButton *m_remove;
    QPushButton *m_bind;
    QPushButton *m_unbind;
    QLabel *m_status;
    bool m_reloadPending = false;
};

} // namespace arizuko::desktop
