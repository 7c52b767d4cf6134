// The guest image build the window runs: the real builder script, its step
// lines read as progress, a cancel that ends the script and everything it
// started, and a failure reported with the script's own reason. A complete
// build downloads and packs ~200 MB and takes minutes, too slow for a test;
// these runs stop at the script's first steps.

#include "host/guest_image_build.h"

#include <QDir>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <signal.h>

using namespace arizuko;
using Outcome = host::GuestImageBuild::Outcome;

class GuestImageBuildTest final : public QObject
{
    Q_OBJECT

private slots:
    void stepLinesAreProgress_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("percent");
        QTest::newRow("first") << QStringLiteral(
                                      "build-guest-image: [   0.1s] resolving input versions")
                               << 5;
        QTest::newRow("root") << QStringLiteral(
                                     "build-guest-image: [  41.0s] writing root.img (ext4)")
                              << 75;
        QTest::newRow("done") << QStringLiteral("build-guest-image: [ 120.3s] done: 30M vmlinux, …")
                              << 100;
        QTest::newRow("cached")
            << QStringLiteral(
                   "build-guest-image: [   1.9s] guest image in /x is up to date (inputs ab12)")
            << 100;
        QTest::newRow("apt output")
            << QStringLiteral("Get:1 http://deb.debian.org bookworm/main") << -1;
        QTest::newRow("error") << QStringLiteral("build-guest-image: error: no guest binary at /x")
                               << -1;
    }

    void stepLinesAreProgress()
    {
        QFETCH(QString, line);
        QFETCH(int, percent);
        QCOMPARE(host::GuestImageBuild::progressOf(line), percent);
    }

    void cancelEndsTheWholeBuild_data()
    {
        QTest::addColumn<bool>("loaded");
        QTest::newRow("idle machine") << false;
        // The cancel lands while the work directory is being made: on a
        // loaded machine the script may not run its next line for a while
        // after the directory exists; slow_work_dir makes that while 3 s.
        QTest::newRow("loaded machine") << true;
    }

    void cancelEndsTheWholeBuild()
    {
        QFETCH(bool, loaded);
        const QByteArray path = qgetenv("PATH");
        const auto restorePath = qScopeGuard([&path] { qputenv("PATH", path); });
        if (loaded)
            qputenv("PATH", QByteArray(SLOW_WORK_DIR) + ':' + path);
        QTemporaryDir output;
        host::GuestImageBuild build;
        QSignalSpy progress(&build, &host::GuestImageBuild::progress);
        QSignalSpy finished(&build, &host::GuestImageBuild::finished);
        build.start({QStringLiteral(BUILDER_SCRIPT), QStringLiteral(GUEST_BINARY), output.path()},
                    true);
        // Wait for a real step of the script (not our own "starting" line),
        // then for its work directory, which the cancel must take with it: it
        // comes after the downloads (cached by ./dev's own image build).
        QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 && progress.last().at(0).toInt() >= 5, 60000);
        const auto workDirectories = [&output] {
            return QDir(output.path())
                .entryList({QStringLiteral(".work.*")}, QDir::Dirs | QDir::Hidden);
        };
        QTRY_VERIFY_WITH_TIMEOUT(!workDirectories().isEmpty(), 300000);
        QVERIFY(build.isRunning());
        build.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.first().at(0).value<Outcome>(), Outcome::Cancelled);
        QVERIFY(!build.isRunning());
        // No image was produced, and the script's work directory went with it.
        QVERIFY(!QFileInfo::exists(output.filePath(QStringLiteral("vmlinux"))));
        QVERIFY(!QFileInfo::exists(output.filePath(QStringLiteral("manifest.json"))));
        QTRY_VERIFY_WITH_TIMEOUT(workDirectories().isEmpty(), 10000);
    }

    void aFailureCarriesTheScriptsReason()
    {
        QTemporaryDir output;
        host::GuestImageBuild build;
        QSignalSpy finished(&build, &host::GuestImageBuild::finished);
        QSignalSpy log(&build, &host::GuestImageBuild::logLine);
        build.start({QStringLiteral(BUILDER_SCRIPT),
                     output.filePath(QStringLiteral("no-such-guest")), output.path()});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().at(0).value<Outcome>(), Outcome::Failed);
        QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("no guest binary at")),
                 qPrintable(finished.first().at(1).toString()));
        QVERIFY(!log.isEmpty());
    }

    void aMissingScriptFailsToStart()
    {
        QTemporaryDir output;
        host::GuestImageBuild build;
        QSignalSpy finished(&build, &host::GuestImageBuild::finished);
        build.start({output.filePath(QStringLiteral("build-guest-image")),
                     QStringLiteral(GUEST_BINARY), output.path()});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished.first().at(0).value<Outcome>(), Outcome::Failed);
        QVERIFY(finished.first().at(1).toString().startsWith(QStringLiteral("cannot start")));
    }
};

QTEST_GUILESS_MAIN(GuestImageBuildTest)
#include "test_guest_image_build.moc"
