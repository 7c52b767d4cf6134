#include "main_window.h"

#include "host_status_panel.h"

#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QMessageBox>

namespace arizuko::desktop {

MainWindow::MainWindow(const turns::RunnerSettings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_hostStatus(new HostStatusPanel(settings, this))
{
    setWindowTitle(tr("Arizuko Desktop"));
    setCentralWidget(m_hostStatus);
    createMenus();
    resize(720, 420);
    m_hostStatus->refresh();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *refresh = view->addAction(tr("&Check this machine again"), m_hostStatus,
                                       &HostStatusPanel::refresh);
    refresh->setObjectName(QStringLiteral("refreshHostStatus"));
    refresh->setShortcut(QKeySequence::Refresh);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Arizuko Desktop"), this, [this] {
        QMessageBox::about(this, tr("About Arizuko Desktop"),
                           tr("<p><b>Arizuko Desktop %1</b></p>"
                              "<p>Runs AI coding agents on this machine without trusting them: "
                              "every turn in its own throw-away virtual machine whose only way "
                              "out is a proxy that allows a fixed list of hosts.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

} // namespace arizuko::desktop
