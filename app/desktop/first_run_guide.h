#pragma once

// The first-run guide: checks libvirt access, the guest image and the
// model, says for each missing piece exactly what to do (a command, or the
// button here that does it), and ends by offering a demo turn with the
// built-in demo model in a folder it creates. Shown when the data directory
// is new, and from Help → First-run guide.

#include "turns/first_run.h"

#include <QDialog>

class QLabel;
class QPushButton;

namespace arizuko::engine {
class Workspace;
}

namespace arizuko::desktop {

class GuestImagePanel;

class FirstRunGuide final : public QDialog
{
    Q_OBJECT

public:
    FirstRunGuide(engine::Workspace &workspace, turns::RunnerSettings settings,
                  QWidget *parent = nullptr);

    // Runs the checks on a worker; ends in checked().
    void recheck();
    // Creates the demo folder on a worker, then asks for the demo turn
    // (demoTurnRequested); the button waits meanwhile.
    void startDemo();
    GuestImagePanel *imagePanel() const { return m_image; }

signals:
    void checked(const arizuko::turns::FirstRunCheck &check);
    void secretsEditorRequested();
    void demoTurnRequested(const QString &folder, const QString &topic);

private:
    void showCheck(const turns::FirstRunCheck &check);

    engine::Workspace &m_workspace;
    turns::RunnerSettings m_settings;
    bool m_checking = false;
    bool m_creatingDemo = false;
    QLabel *m_libvirt;
    QLabel *m_libvirtTodo;
    QLabel *m_imageTodo;
    QLabel *m_model;
    QLabel *m_modelTodo;
    GuestImagePanel *m_image;
    QPushButton *m_recheck;
    QPushButton *m_demo;
    QLabel *m_status;
    bool m_machineReady = false;
};

} // namespace arizuko::desktop
