#pragma once

// The user's settings, edited: each field checked as you type with the
// reason beside it, Save refusing everything while one field is wrong, a
// note where an environment variable overrides a saved value, the libvirt
// connection check and the guest image with its Build button. A change
// saved by arizukoctl shows in an open dialog (fields not being edited).
// The saved settings are read and saved on a worker: Save waits for the
// first read, and is off while a save is under way.

#include "host/host_status.h"
#include "turns/saved_settings.h"

#include <QDialog>
#include <QFutureWatcher>
#include <functional>

class QAbstractButton;
class QFormLayout;
class QLabel;
class QPushButton;

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

class GuestImagePanel;

class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(engine::Workspace &workspace, QWidget *parent = nullptr);

    // Starts saving the changed fields, which ends in saveFinished; false
    // (and nothing saved) when one is refused or a read or save is still
    // under way. True with nothing to save.
    bool save();
    bool isSaving() const { return m_saving; }
    // Checks libvirt at the URI in the field, on a worker; ends in connectionChecked.
    void checkConnection();
    GuestImagePanel *imagePanel() const { return m_image; }

signals:
    void secretsEditorRequested();
    void connectionChecked(const arizuko::host::HostStatus &status);
    // The saved settings were read and are shown.
    void loaded();
    // A save's answer is shown in the status line.
    void saveFinished(bool saved);

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
    void showSaved(const turns::SettingValues &saved);
    void showSaveResult(const Result<void> &saved, const QMap<QString, QString> &shown,
                        qsizetype count);
    void updateSaveButton();
    // The field's problem beside it; true when it has none.
    bool checkField(Field &field);
    turns::SettingValues changes() const;
    void showConnection(const host::HostStatus &status);

    engine::Workspace &m_workspace;
    turns::SettingValues m_saved;
    // Only the newest read is shown: an older one may predate a save.
    quint64 m_reads = 0;
    bool m_readOnce = false;
    bool m_saving = false;
    QAbstractButton *m_save = nullptr;
    QList<Field> m_fields;
    QFormLayout *m_form;
    QLabel *m_connection;
    QPushButton *m_check;
    GuestImagePanel *m_image;
    QLabel *m_status;
    QFutureWatcher<host::HostStatus> m_checking;
};

} // namespace arizuko::desktop
