// arizuko-desktop: the window over the engine.

#include "main_window.h"
#include "translations.h"

#include "store/data_dir.h"
#include "store/store.h"
#include "turns/first_run.h"
#include "turns/runner_settings.h"

#include <QApplication>
#include <QLocale>
#include <QMessageBox>

int main(int argc, char *argv[])
{
    // WebEngine shares its GL context with the widgets; set before the
    // application object exists.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("arizuko-desktop"));
    QApplication::setApplicationDisplayName(QStringLiteral("Arizuko Desktop"));
    QApplication::setOrganizationName(QStringLiteral("arizuko"));
    QApplication::setApplicationVersion(QStringLiteral(ARIZUKO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("arizuko-desktop"));
    // The user's languages as the system gives them (LANGUAGE, LC_ALL,
    // LC_MESSAGES, LANG): LANGUAGE=de shows the window in German.
    arizuko::desktop::installTranslations(application, QLocale::system().uiLanguages());

    auto store = arizuko::store::Store::open(arizuko::store::resolveDataDir(QString()));
    if (!store) {
        QMessageBox::critical(nullptr, QApplication::translate("main", "Arizuko Desktop"),
                              store.error().message);
        return 1;
    }
    const auto settings = arizuko::turns::RunnerSettings::load(**store);
    if (!settings) {
        QMessageBox::critical(nullptr, QApplication::translate("main", "Arizuko Desktop"),
                              settings.error().message);
        return 1;
    }
    arizuko::desktop::MainWindow window(**store, *settings);
    window.show();
    if (const auto firstRun = arizuko::turns::isFirstRun(**store); firstRun && *firstRun)
        window.showFirstRunGuide();
    return application.exec();
}
