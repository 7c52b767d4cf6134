#pragma once

// Secrets by name and scope: set or replace a value in a password field that
// is cleared as soon as the value is sealed, remove a name, and where the
// master key lives. No value is ever read back; the editor has no way to.
// Opening the key store can wait seconds for an OS keyring, so every call
// runs on a worker.

#include "core/result.h"
#include "secrets/secret_store.h"

#include <QDialog>
#include <QFutureWatcher>
#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace arizuko::store {
class Store;
class StoreWatcher;
}
namespace arizuko::models {
class SecretListModel;
}

namespace arizuko::desktop {

class SecretsEditor final : public QDialog
{
    Q_OBJECT

public:
    SecretsEditor(store::Store &store, store::StoreWatcher *watcher, const QString &folder,
                  QWidget *parent = nullptr);

    models::SecretListModel *model() const { return m_model; }
    // Ready to set `name`: the name filled in, the value field focused.
    void prepareFor(const QString &name);
    bool isBusy() const { return m_watcher.isRunning(); }

signals:
    // A worker's answer is shown (the list re-read, or a refusal).
    void settled();

private:
    struct Outcome
    {
        Result<QList<secrets::SecretInfo>> secrets = QList<secrets::SecretInfo>{};
        QString keyStore;
        QString done;
        QString refused;
    };
    using Operation = std::function<Result<QString>(secrets::SecretStore &)>;

    void loadFolders(const QString &select);
    void run(Operation operation);
    void showOutcome();
    void validate();
    void setSecret();
    void removeSecret();

    store::Store &m_store;
    models::SecretListModel *m_model;
    QFutureWatcher<Outcome> m_watcher;
    QLabel *m_keyStore;
    QTableView *m_table;
    QComboBox *m_folder;
    QLineEdit *m_name;
    QLineEdit *m_value;
    QLabel *m_validation;
    QPushButton *m_set;
    QPushButton *m_remove;
    QLabel *m_status;
    bool m_reloadPending = false;
};

} // namespace arizuko::desktop
