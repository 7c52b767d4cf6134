// The first-run guide on a real store: a new data directory is recognised,
// every check against a machine with nothing set up says what is missing
// and exactly what to do, the checks turn Ready against the real libvirtd,
// the demo model and a key set by arizukoctl, and the demo folder is made.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "first_run_guide.h"
#include "folders/folders.h"
#include "folders/topics.h"
#include "guest_image_panel.h"
#include "silent_socket.h"
#include "turns/saved_settings.h"

#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QThreadPool>
#include <thread>

using namespace arizuko;
using namespace editor_test;

namespace {

turns::RunnerSettings nothingSetUp(const QTemporaryDir &dir)
{
    turns::RunnerSettings settings;
    settings.libvirtUri = QStringLiteral("qemu+unix:///system?socket=/nonexistent/libvirt-sock");
    settings.guestImageDirectory = dir.filePath(QStringLiteral("no-image"));
    settings.accelerator = libvirt::AcceleratorSetting::Tcg;
    return settings;
}

QString text(const QWidget &guide, const char *name)
{
    return child<QLabel>(guide, name)->text();
}

} // namespace

class FirstRunGuideTest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
    }

    void aNewDataDirectoryIsAFirstRun()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QCOMPARE(*turns::isFirstRun(*store), true);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, QStringLiteral("3")}},
                                                  QStringLiteral("t")));
        QCOMPARE(*turns::isFirstRun(*store), false);
        QTemporaryDir other;
        auto second = openStore(other);
        QVERIFY(folders::Folders(*second, QStringLiteral("user:test")).add(QStringLiteral("corp")));
        QCOMPARE(*turns::isFirstRun(*second), false);
    }

    void eachMissingPieceSaysWhatToDo()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        engine::Workspace workspace(*store);
        desktop::FirstRunGuide guide(workspace, nothingSetUp(dir));
        QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
        QVERIFY(checked.wait(60000));
        QTRY_VERIFY(!text(guide, "imageTodo").isEmpty());
        QVERIFY2(
            text(guide, "libvirtCheck").startsWith(QStringLiteral("Missing: qemu+unix:///system")),
            qPrintable(text(guide, "libvirtCheck")));
        QVERIFY(
            text(guide, "libvirtTodo").contains(QStringLiteral("sudo systemctl start libvirtd")));
        QVERIFY(text(guide, "libvirtTodo").contains(QStringLiteral("sudo adduser $USER libvirt")));
        QVERIFY2(text(guide, "imageTodo").contains(QStringLiteral("press Build guest image above")),
                 qPrintable(text(guide, "imageTodo")));
        QVERIFY(child<QPushButton>(guide, "buildImage")->isEnabled());
        QCOMPARE(text(guide, "modelCheck"),
                 QStringLiteral("Missing: no Anthropic API key or OAuth token is set."));
        QVERIFY(text(guide, "modelTodo")
                    .contains(QStringLiteral("`arizukoctl secret set ANTHROPIC_API_KEY`")));
        QVERIFY(text(guide, "modelTodo").contains(QStringLiteral("press Open secrets…")));
        QVERIFY(!child<QPushButton>(guide, "runDemo")->isEnabled());
        QCOMPARE(text(guide, "status"), QStringLiteral("Some pieces are missing: see each To do."));
        screenshot(guide, QStringLiteral("first-run-guide"));
    }

    void checksTurnReadyWhenThePiecesExist()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        turns::RunnerSettings settings = nothingSetUp(dir);
        settings.libvirtUri = QStringLiteral("qemu:///system");
        settings.modelProvider = turns::ModelProviderChoice::Demo;
        engine::Workspace workspace(*store);
        {
            desktop::FirstRunGuide guide(workspace, settings);
            QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
            QVERIFY(checked.wait(60000));
            QVERIFY2(text(guide, "libvirtCheck")
                         .startsWith(QStringLiteral("Ready: qemu:///system answers")),
                     qPrintable(text(guide, "libvirtCheck")));
            QVERIFY(text(guide, "libvirtCheck").contains(QStringLiteral("turns run under TCG")));
            QCOMPARE(text(guide, "modelCheck"),
                     QStringLiteral("Ready: the model provider is the offline demo model."));
        }
        // A key set by arizukoctl is found by name (its value never read).
        QProcess ctl;
        ctl.start(QStringLiteral(ARIZUKOCTL),
                  {QStringLiteral("--data-dir"), dir.path(), QStringLiteral("secret"),
                   QStringLiteral("set"), QStringLiteral("ANTHROPIC_API_KEY")});
        ctl.write("sk-test-not-a-key\n");
        ctl.closeWriteChannel();
        QVERIFY(ctl.waitForFinished(30000));
        QCOMPARE(ctl.exitCode(), 0);
        settings.modelProvider = turns::ModelProviderChoice::Auto;
        desktop::FirstRunGuide guide(workspace, settings);
        QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
        QVERIFY(checked.wait(60000));
        QCOMPARE(text(guide, "modelCheck"),
                 QStringLiteral("Ready: ANTHROPIC_API_KEY (every folder)."));
    }

    // The guide (and the store it was given) may go while its check runs:
    // the check's worker must never use a store that is gone. The store
    // waits for it instead of closing under it; the guide does not.
    void closingTheGuideWhileItChecksIsSafe()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        // libvirt at a socket that never answers: the check hangs in
        // virConnectOpen until close() resets it.
        SilentSocket libvirt(dir.filePath(QStringLiteral("libvirt-sock")));
        turns::RunnerSettings settings = nothingSetUp(dir);
        settings.libvirtUri = QStringLiteral("qemu+unix:///system?socket=%1")
                                  .arg(dir.filePath(QStringLiteral("libvirt-sock")));
        auto workspace = std::make_unique<engine::Workspace>(*store);
        auto guide = std::make_unique<desktop::FirstRunGuide>(*workspace, settings);
        QVERIFY(libvirt.waitForClient(30000));
        QElapsedTimer closing;
        closing.start();
        guide.reset();
        workspace.reset();
        QVERIFY2(closing.elapsed() < 1000,
                 "closing the guide (or the workspace) waited for its check");
        // libvirt answers (with an error) only after the store was asked
        // to go; the check then goes on to read the store's secrets.
        static constexpr int answerAfterMs = 1500;
        std::thread answer([&libvirt] {
            std::this_thread::sleep_for(std::chrono::milliseconds(answerAfterMs));
            libvirt.close();
        });
        QElapsedTimer storeGoing;
        storeGoing.start();
        store.reset();
        const qint64 waited = storeGoing.elapsed();
        answer.join();
        QVERIFY2(waited >= answerAfterMs - 100,
                 qPrintable(QStringLiteral("the store went after %1 ms, while its check "
                                           "still ran")
                                .arg(waited)));
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
    }

    void theDemoGetsAFolderOfItsOwn()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        engine::Workspace workspace(*store);
        desktop::FirstRunGuide guide(workspace, nothingSetUp(dir));
        QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
        QVERIFY(checked.wait(60000)); // its status line is the demo's from now on
        QSignalSpy demo(&guide, &desktop::FirstRunGuide::demoTurnRequested);
        // Made on a worker; a second press while the first is under way is
        // ignored, as its button is disabled meanwhile.
        guide.startDemo();
        guide.startDemo();
        QVERIFY(demo.wait(30000));
        QCOMPARE(demo.size(), 1);
        QCOMPARE(
            child<QLabel>(guide, "status")->text(),
            QStringLiteral("Demo turn asked for in folder demo; it shows in the main window."));
        guide.startDemo();
        QVERIFY(demo.wait(30000));
        QCOMPARE(demo.size(), 2);
        QCOMPARE(demo.at(0).at(0).toString(), QStringLiteral("demo"));
        QCOMPARE(demo.at(1).at(0).toString(), QStringLiteral("demo-2"));
        QCOMPARE(demo.at(0).at(1).toString(), turns::demoTopic);
        const auto topics =
            folders::Topics(*store, QStringLiteral("user:test")).list(QStringLiteral("demo-2"));
        QVERIFY(topics && topics->size() == 1 && topics->first().name == turns::demoTopic);
    }
};

QTEST_MAIN(FirstRunGuideTest)
#include "test_first_run_guide.moc"
