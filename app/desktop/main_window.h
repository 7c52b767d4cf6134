#pragma once

// The application window. For now it shows the machine's readiness; the
// folder tree, transcript and editors take their places here as they land.

#include "turns/runner_settings.h"

#include <QMainWindow>

namespace arizuko::desktop {

class HostStatusPanel;

class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(const turns::RunnerSettings &settings, QWidget *parent = nullptr);

    HostStatusPanel *hostStatusPanel() const { return m_hostStatus; }

private:
    void createMenus();

    HostStatusPanel *m_hostStatus;
};

} // namespace arizuko::desktop
