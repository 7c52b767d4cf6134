#pragma once

// The user's settings, edited: each field checked as you type with the
// reason beside it, Save refusing everything while one field is wrong, a
// note where an environment variable overrides a saved value, the libvirt
// connection check and the guest image with its Build button. A change
// saved by arizukoctl shows in an open dialog (fields not being edited).

#include "host/host_status.h"
#include "turns/saved_settings.h"

#include <QDialog>
#include <QFutureWatcher>
#include <functional>

class QFormLayout;
class QLabel;
class QPushButton;

namespace arizuko::store {
class Store;
class StoreWatcher;
}

namespace arizuko::desktop {

class GuestImagePanel;

class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    SettingsDialog(store::Store &store, store::StoreWatcher *watcher, QWidget *parent = nullptr);

    // Saves the changed fields; false (and nothing saved) when one is refused.
    bool save();
    // Checks libvirt at the URI in the field, on a worker; ends in connectionChecked.
    void checkConnection();
    GuestImagePanel *imagePanel() const { return m_image; }

signals:
    void secretsEditorRequested();
    void connectionChecked(const arizuko::host::HostStatus &status);

private:
    struct Field
    {
        QString key;
        QWidget *editor = nullptr;
        std::function<QString()> value;
        std::function<void(const QString &)> setValue;
        QLabel *problem = nullptr;
        QLabel *environment = nullptr;
        QString loaded; // the value shown when the saved settings were last read
    };

    void addField(const QString &key, const QString &label, QWidget *editor,
                  std::function<QString()> value, std::function<void(const QString &)> setValue);
    void reloadSaved();
    // The field's problem beside it; true when it has none.
    bool checkField(Field &field);
    turns::SettingValues changes() const;
    void showConnection(const host::HostStatus &status);

    store::Store &m_store;
    turns::SettingValues m_saved;
    QList<Field> m_fields;
    QFormLayout *m_form;
    QLabel *m_connection;
    QPushButton *m_check;
    GuestImagePanel *m_image;
    QLabel *m_status;
    QFutureWatcher<host::HostStatus> m_checking;
};

} // namespace arizuko::desktop
