// The first-run guide on a real store: a new data directory is recognised,
// every check against a machine with nothing set up says what is missing
// and exactly what to do, the checks turn Ready against the real libvirtd,
// the demo model and a key set by arizukoctl, and the demo folder is made.

#include "editor_test_support.h"
#include "first_run_guide.h"
#include "guest_image_panel.h"

#include "folders/folders.h"
#include "folders/topics.h"
#include "turns/saved_settings.h"

#include <QPushButton>
#include <QSignalSpy>

using namespace arizuko;
using namespace editor_test;
using namespace Qt::StringLiterals;

namespace {

turns::RunnerSettings nothingSetUp(const QTemporaryDir &dir)
{
    turns::RunnerSettings settings;
    settings.libvirtUri = u"qemu+unix:///system?socket=/nonexistent/libvirt-sock"_s;
    settings.guestImageDirectory = dir.filePath(u"no-image"_s);
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
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, u"3"_s}}, u"t"_s));
        QCOMPARE(*turns::isFirstRun(*store), false);
        QTemporaryDir other;
        auto second = openStore(other);
        QVERIFY(folders::Folders(*second, u"user:test"_s).add(u"corp"_s));
        QCOMPARE(*turns::isFirstRun(*second), false);
    }

    void eachMissingPieceSaysWhatToDo()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        desktop::FirstRunGuide guide(*store, nothingSetUp(dir));
        QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
        QVERIFY(checked.wait(60000));
        QTRY_VERIFY(!text(guide, "imageTodo").isEmpty());
        QVERIFY2(text(guide, "libvirtCheck").startsWith(u"Missing: qemu+unix:///system"_s),
                 qPrintable(text(guide, "libvirtCheck")));
        QVERIFY(text(guide, "libvirtTodo").contains(u"sudo systemctl start libvirtd"_s));
        QVERIFY(text(guide, "libvirtTodo").contains(u"sudo adduser $USER libvirt"_s));
        QVERIFY2(text(guide, "imageTodo").contains(u"press Build guest image above"_s),
                 qPrintable(text(guide, "imageTodo")));
        QVERIFY(child<QPushButton>(guide, "buildImage")->isEnabled());
        QCOMPARE(text(guide, "modelCheck"), u"Missing: no Anthropic API key or OAuth token is set."_s);
        QVERIFY(text(guide, "modelTodo").contains(u"`arizukoctl secret set ANTHROPIC_API_KEY`"_s));
        QVERIFY(text(guide, "modelTodo").contains(u"press Open secrets…"_s));
        QVERIFY(!child<QPushButton>(guide, "runDemo")->isEnabled());
        QCOMPARE(text(guide, "status"), u"Some pieces are missing: see each To do."_s);
        screenshot(guide, u"first-run-guide"_s);
    }

    void checksTurnReadyWhenThePiecesExist()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        turns::RunnerSettings settings = nothingSetUp(dir);
        settings.libvirtUri = u"qemu:///system"_s;
        settings.modelProvider = turns::ModelProviderChoice::Demo;
        {
            desktop::FirstRunGuide guide(*store, settings);
            QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
            QVERIFY(checked.wait(60000));
            QVERIFY2(text(guide, "libvirtCheck").startsWith(u"Ready: qemu:///system answers"_s),
                     qPrintable(text(guide, "libvirtCheck")));
            QVERIFY(text(guide, "libvirtCheck").contains(u"turns run under TCG"_s));
            QCOMPARE(text(guide, "modelCheck"),
                     u"Ready: the model provider is the offline demo model."_s);
        }
        // A key set by arizukoctl is found by name (its value never read).
        QProcess ctl;
        ctl.start(QStringLiteral(ARIZUKOCTL), {u"--data-dir"_s, dir.path(), u"secret"_s, u"set"_s,
                                               u"ANTHROPIC_API_KEY"_s});
        ctl.write("sk-test-not-a-key\n");
        ctl.closeWriteChannel();
        QVERIFY(ctl.waitForFinished(30000));
        QCOMPARE(ctl.exitCode(), 0);
        settings.modelProvider = turns::ModelProviderChoice::Auto;
        desktop::FirstRunGuide guide(*store, settings);
        QSignalSpy checked(&guide, &desktop::FirstRunGuide::checked);
        QVERIFY(checked.wait(60000));
        QCOMPARE(text(guide, "modelCheck"), u"Ready: ANTHROPIC_API_KEY (every folder)."_s);
    }

    void theDemoGetsAFolderOfItsOwn()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        desktop::FirstRunGuide guide(*store, nothingSetUp(dir));
        QSignalSpy demo(&guide, &desktop::FirstRunGuide::demoTurnRequested);
        guide.startDemo();
        guide.startDemo();
        QCOMPARE(demo.size(), 2);
        QCOMPARE(demo.at(0).at(0).toString(), u"demo"_s);
        QCOMPARE(demo.at(1).at(0).toString(), u"demo-2"_s);
        QCOMPARE(demo.at(0).at(1).toString(), turns::demoTopic);
        const auto topics = folders::Topics(*store, u"user:test"_s).list(u"demo-2"_s);
        QVERIFY(topics && topics->size() == 1 && topics->first().name == turns::demoTopic);
    }
};

QTEST_MAIN(FirstRunGuideTest)
#include "test_first_run_guide.moc"
