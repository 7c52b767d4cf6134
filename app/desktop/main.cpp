// arizuko-desktop: the window over the engine.

#include "main_window.h"

#include "host/host_status.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("arizuko-desktop"));
    QApplication::setApplicationDisplayName(QStringLiteral("Arizuko Desktop"));
    QApplication::setOrganizationName(QStringLiteral("arizuko"));
    QApplication::setApplicationVersion(QStringLiteral(ARIZUKO_VERSION));

    arizuko::desktop::MainWindow window(arizuko::host::defaultLibvirtUri());
    window.show();
    return application.exec();
}
