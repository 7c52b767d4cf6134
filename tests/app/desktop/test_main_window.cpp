// The window's first page, driven like a user would: it opens, checks the
// machine against the real libvirtd, and can check again from the keyboard;
// and it reaches the screen without OpenGL unless the user chose it.

#include "engine/workspace.h"
#include "host_status_panel.h"
#include "main_window.h"
#include "store/store.h"
#include "transcript_view.h"
#include "web_view_compositing.h"

#include <QAction>
#include <QLabel>
#include <QQuickWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEngineView>

using arizuko::desktop::HostStatusPanel;
using arizuko::desktop::MainWindow;
using arizuko::desktop::WebViewCompositing;

namespace {

arizuko::turns::RunnerSettings settingsFor(const QString &libvirtUri)
{
    auto settings = arizuko::turns::RunnerSettings::fromEnvironment();
    if (!settings)
        qFatal("%s", qPrintable(settings.error().message));
    settings->libvirtUri = libvirtUri;
    return *settings;
}

} // namespace

class MainWindowTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<arizuko::store::Store> m_store;

private slots:
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        auto opened = arizuko::store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
    }
    void cleanup() { m_store.reset(); }

    void showsTheMachineStatusOnOpening()
    {
        arizuko::engine::Workspace workspace(*m_store);
        MainWindow window(workspace, settingsFor(QStringLiteral("qemu:///system")));
        QSignalSpy refreshed(window.hostStatusPanel(), &HostStatusPanel::refreshed);
        window.show();
        QVERIFY(refreshed.wait(15000));

        const auto *libvirt = window.findChild<QLabel *>(QStringLiteral("libvirtState"));
        QVERIFY(libvirt);
        QVERIFY2(libvirt->text().contains(QLatin1String("reachable (libvirt")),
                 qPrintable(libvirt->text()));
        const auto *accelerator = window.findChild<QLabel *>(QStringLiteral("acceleratorState"));
        QVERIFY(accelerator->text().startsWith(QLatin1String("KVM"))
                || accelerator->text().startsWith(QLatin1String("TCG")));
    }

    void explainsAnUnreachableDaemon()
    {
        arizuko::engine::Workspace workspace(*m_store);
        MainWindow window(
            workspace, settingsFor(QStringLiteral("qemu+unix:///system?socket=/nonexistent/sock")));
        QSignalSpy refreshed(window.hostStatusPanel(), &HostStatusPanel::refreshed);
        QVERIFY(refreshed.wait(15000));
        const auto *libvirt = window.findChild<QLabel *>(QStringLiteral("libvirtState"));
        QVERIFY2(libvirt->text().contains(QLatin1String("is libvirtd running?")),
                 qPrintable(libvirt->text()));
        const auto *summary = window.findChild<QLabel *>(QStringLiteral("summary"));
        QCOMPARE(summary->text(), QStringLiteral("This machine cannot run turns yet."));
    }

    void checksAgainFromTheKeyboard()
    {
        arizuko::engine::Workspace workspace(*m_store);
        MainWindow window(workspace, settingsFor(QStringLiteral("qemu:///system")));
        QSignalSpy refreshed(window.hostStatusPanel(), &HostStatusPanel::refreshed);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The first check may end while the window is being exposed.
        QVERIFY(refreshed.count() == 1 || refreshed.wait(15000));

        auto *action = window.findChild<QAction *>(QStringLiteral("refreshHostStatus"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::Refresh));
        action->trigger();
        QVERIFY(refreshed.wait(15000));
        QCOMPARE(refreshed.count(), 2);
    }

    // With the web view composited through OpenGL, the whole window was
    // (its surface turns OpenGL), which without a GPU stalled the GUI
    // thread at every repaint: the window stays a raster surface. Run a
    // second time with QT_QUICK_BACKEND=rhi (app.main_window_opengl_by_choice):
    // the user's choice holds, and the window's surface is then OpenGL.
    void drawsWithoutOpenGLUnlessTheUserChose()
    {
        arizuko::engine::Workspace workspace(*m_store);
        MainWindow window(workspace, settingsFor(QStringLiteral("qemu:///system")));
        QWebEngineView *view = window.transcript()->webView();
        QSignalSpy loaded(view, &QWebEngineView::loadFinished);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The page has loaded and the view made the widget it draws into
        // (its focus proxy): the window's surface has been chosen by now.
        QVERIFY(!loaded.isEmpty() || loaded.wait(15000));
        QVERIFY(loaded.first().first().toBool());
        QTRY_VERIFY_WITH_TIMEOUT(view->focusProxy() && view->focusProxy()->isVisible(), 15000);
        if (qEnvironmentVariableIsSet("QT_QUICK_BACKEND")) {
            QCOMPARE(window.transcript()->compositing(), WebViewCompositing::ChosenByEnvironment);
            QTRY_COMPARE_WITH_TIMEOUT(window.windowHandle()->surfaceType(), QSurface::OpenGLSurface,
                                      15000);
        } else {
            QCOMPARE(window.transcript()->compositing(), WebViewCompositing::Software);
            QCOMPARE(window.windowHandle()->surfaceType(), QSurface::RasterSurface);
            QCOMPARE(QQuickWindow::sceneGraphBackend(), QStringLiteral("software"));
        }
    }
};

QTEST_MAIN(MainWindowTest)
#include "test_main_window.moc"
