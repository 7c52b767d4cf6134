// arizuko-desktop: the window over the engine.

#include "main_window.h"

#include "turns/runner_settings.h"

#include <QApplication>
#include <QMessageBox>

int main(int argc, char *argv[])
{
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("arizuko-desktop"));
    QApplication::setApplicationDisplayName(QStringLiteral("Arizuko Desktop"));
    QApplication::setOrganizationName(QStringLiteral("arizuko"));
    QApplication::setApplicationVersion(QStringLiteral(ARIZUKO_VERSION));

    const auto settings = arizuko::turns::RunnerSettings::fromEnvironment();
    if (!settings) {
        QMessageBox::critical(nullptr, QApplication::translate("main", "Arizuko Desktop"),
                              settings.error().message);
        return 1;
    }
    arizuko::desktop::MainWindow window(*settings);
    window.show();
    return application.exec();
}
