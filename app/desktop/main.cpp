// arizuko-desktop: the window over the engine.

#include "engine/workspace.h"
#include "main_window.h"
#include "store/data_dir.h"
#include "store/store.h"
#include "translations.h"
#include "turns/first_run.h"
#include "turns/runner_settings.h"

#include <QApplication>
#include <QLocale>
#include <QMessageBox>
#include <QTextStream>
#include <unistd.h>

namespace {

// Chromium, inside Qt WebEngine, aborts as root unless its sandbox is off,
// and would take the window down with it before it showed anything. A
// root user who turned the sandbox off on purpose (the tests do) may go on.
bool webEngineRefusesThisUser()
{
    const QLatin1String noSandbox("--no-sandbox");
    return ::geteuid() == 0 &&
           qEnvironmentVariable("QTWEBENGINE_DISABLE_SANDBOX") != QLatin1String("1") &&
           !qEnvironmentVariable("QTWEBENGINE_CHROMIUM_FLAGS").contains(noSandbox) &&
           !QCoreApplication::arguments().contains(noSandbox);
}

QString rootRefusal()
{
    return QApplication::translate(
        "main",
        "Arizuko Desktop does not run as root.\n\n"
        "Its transcript view (Qt WebEngine) refuses to run as root with its sandbox on, and "
        "the agents' virtual machines are meant to run as you, not as root.\n\n"
        "Start Arizuko Desktop as your own user, a member of the libvirt group. To join the "
        "group once: sudo adduser YOUR-USER-NAME libvirt, then log out and in again.");
}

} // namespace

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

    if (webEngineRefusesThisUser()) {
        QTextStream(stderr) << "arizuko-desktop: " << rootRefusal() << '\n';
        QMessageBox::critical(nullptr, QApplication::translate("main", "Arizuko Desktop"),
                              rootRefusal());
        return 1;
    }

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
    // The window asks the workspace, which runs store work on the global
    // thread pool and never waits for it: a closed dialog just drops the
    // answer. The store, declared before both, goes after them and waits for
    // that work (store/store_work.h).
    arizuko::engine::Workspace workspace(**store);
    arizuko::desktop::MainWindow window(workspace, *settings);
    window.show();
    if (const auto firstRun = arizuko::turns::isFirstRun(**store); firstRun && *firstRun)
        window.showFirstRunGuide();
    return application.exec();
}
