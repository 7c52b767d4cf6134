// The settings dialog on a real store, checked against the real arizukoctl:
// each field's refusal beside it, hostile input refused with nothing saved,
// a save read back by arizukoctl, a change by arizukoctl shown in the open
// dialog, the environment override shown, the libvirt check against the
// real libvirtd, and the image builder's absence said plainly.

#include "editor_test_support.h"
#include "guest_image_panel.h"
#include "host/guest_image_build.h"
#include "settings_dialog.h"

#include "store/store_watcher.h"
#include "turns/saved_settings.h"

#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

using namespace arizuko;
using namespace editor_test;
using namespace Qt::StringLiterals;

namespace {

QJsonArray savedSettings(const QString &dataDir)
{
    const CtlResult shown = arizukoctl(dataDir, {u"settings"_s, u"show"_s});
    if (shown.exitCode != 0)
        qFatal("settings show failed: %s", shown.err.constData());
    return shown.json().object().value(u"settings"_s).toArray();
}

QJsonObject settingIn(const QJsonArray &settings, const QString &key)
{
    for (const QJsonValue &row : settings) {
        if (row.toObject().value(u"key"_s).toString() == key)
            return row.toObject();
    }
    return {};
}

QLabel *problemOf(const QWidget &dialog, const QString &key)
{
    return child<QLabel>(dialog, qPrintable(key + u"-problem"_s));
}

} // namespace

class SettingsDialogTest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The person running the tests may have these set; the dialog and
        // arizukoctl would show them as overrides.
        for (const turns::SettingDefinition &definition : turns::settingDefinitions())
            qunsetenv(definition.environmentVariable);
    }

    void eachFieldRefusesWithItsReasonAndNothingIsSaved_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("uri") << turns::setting::libvirtUri << u"localhost"_s
                             << u"is not a libvirt URI"_s;
        QTest::newRow("pool") << turns::setting::subnetPool << u"10.0.0.0/12"_s
                              << u"the pool must be a /16 to a /30"_s;
        QTest::newRow("pool v6") << turns::setting::subnetPool << u"fd00::/64"_s
                                 << u"is not an IPv4 network"_s;
        QTest::newRow("url") << turns::setting::modelUrl << u"ftp://models.example"_s
                             << u"is not an http(s) URL"_s;
        QTest::newRow("model") << turns::setting::model << u"claude sonnet"_s
                               << u"contains a space"_s;
        const QStringList hostile = hostileInputs();
        for (const QString &key : {turns::setting::libvirtUri, turns::setting::subnetPool,
                                   turns::setting::modelUrl, turns::setting::model}) {
            for (qsizetype index = 0; index < hostile.size(); ++index)
                QTest::addRow("%s hostile %d", qPrintable(key), int(index))
                    << key << hostile.at(index) << u"Refused: "_s;
        }
    }

    void eachFieldRefusesWithItsReasonAndNothingIsSaved()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, u"3"_s}}, u"test"_s));
        const QJsonArray before = savedSettings(dir.path());
        desktop::SettingsDialog dialog(*store, nullptr);
        // A valid change beside the bad one: it must not be saved either.
        child<QSpinBox>(dialog, "max-turns")->setValue(7);
        child<QLineEdit>(dialog, qPrintable(key))->setText(value);
        QLabel *problem = problemOf(dialog, key);
        QVERIFY(!problem->isHidden());
        QVERIFY2(problem->text().startsWith(u"Refused: "_s) && problem->text().contains(reason),
                 qPrintable(problem->text()));
        // What a person typed never reorders or hides the sentence.
        QVERIFY(!problem->text().contains(QChar(0x202E)) && !problem->text().contains(QChar(0)));
        QVERIFY(problem->text().size() < 600);
        QVERIFY(!dialog.save());
        QVERIFY(child<QLabel>(dialog, "status")->text().startsWith(u"Nothing was saved"_s));
        QCOMPARE(savedSettings(dir.path()), before);
    }

    void aSaveIsReadBackByArizukoctl()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        desktop::SettingsDialog dialog(*store, nullptr);
        child<QSpinBox>(dialog, "max-turns")->setValue(5);
        child<QSpinBox>(dialog, "turn-deadline")->setValue(45);
        auto *provider = child<QComboBox>(dialog, "model-provider");
        provider->setCurrentIndex(provider->findData(u"demo"_s));
        child<QLineEdit>(dialog, "subnet-pool")->setText(u"10.77.0.0/20"_s);
        child<QLineEdit>(dialog, "model-url")->setText(u"http://127.0.0.1:9/v1"_s);
        QVERIFY(problemOf(dialog, turns::setting::subnetPool)->isHidden());
        child<QPushButton>(dialog, "save")->click();
        QVERIFY2(child<QLabel>(dialog, "status")->text().startsWith(u"Saved 5 setting"_s),
                 qPrintable(child<QLabel>(dialog, "status")->text()));
        const QJsonArray saved = savedSettings(dir.path());
        QCOMPARE(settingIn(saved, u"max-turns"_s).value(u"value"_s).toString(), u"5"_s);
        QCOMPARE(settingIn(saved, u"max-turns"_s).value(u"source"_s).toString(), u"saved"_s);
        QCOMPARE(settingIn(saved, u"turn-deadline"_s).value(u"value"_s).toString(), u"2700"_s);
        QCOMPARE(settingIn(saved, u"model-provider"_s).value(u"value"_s).toString(), u"demo"_s);
        QCOMPARE(settingIn(saved, u"subnet-pool"_s).value(u"value"_s).toString(), u"10.77.0.0/20"_s);
        QCOMPARE(settingIn(saved, u"model-url"_s).value(u"value"_s).toString(),
                 u"http://127.0.0.1:9/v1"_s);
        // Untouched fields stay unsaved (defaults).
        QCOMPARE(settingIn(saved, u"libvirt-uri"_s).value(u"source"_s).toString(), u"default"_s);
        const CtlResult audit = arizukoctl(dir.path(), {u"audit"_s, u"--kind"_s, u"settings"_s});
        QCOMPARE(audit.json().array().size(), 5);
    }

    void aChangeByArizukoctlShowsInTheOpenDialog()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        store::StoreWatcher watcher(*store);
        desktop::SettingsDialog dialog(*store, &watcher);
        dialog.show();
        auto *pool = child<QLineEdit>(dialog, "subnet-pool");
        QCOMPARE(pool->text(), u"10.213.0.0/16"_s);
        // A field being edited keeps what the person typed.
        child<QLineEdit>(dialog, "model")->setText(u"typed-here"_s);
        QCOMPARE(arizukoctl(dir.path(), {u"settings"_s, u"set"_s, u"subnet-pool"_s,
                                         u"10.50.0.0/24"_s})
                     .exitCode,
                 0);
        QCOMPARE(arizukoctl(dir.path(), {u"settings"_s, u"set"_s, u"model"_s, u"from-cli"_s})
                     .exitCode,
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(pool->text(), u"10.50.0.0/24"_s, 5000);
        QCOMPARE(child<QLineEdit>(dialog, "model")->text(), u"typed-here"_s);
    }

    void anEnvironmentOverrideIsShown()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, u"4"_s}}, u"test"_s));
        qputenv("ARIZUKO_MAX_TURNS", "9");
        desktop::SettingsDialog dialog(*store, nullptr);
        qunsetenv("ARIZUKO_MAX_TURNS");
        QLabel *note = child<QLabel>(dialog, "max-turns-environment");
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(u"ARIZUKO_MAX_TURNS=9"_s), qPrintable(note->text()));
        // The field edits the saved value, not the override.
        QCOMPARE(child<QSpinBox>(dialog, "max-turns")->value(), 4);
        QVERIFY(child<QLabel>(dialog, "turn-deadline-environment")->isHidden());
    }

    void checkConnectionReportsFromAWorker()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        desktop::SettingsDialog dialog(*store, nullptr);
        auto *accelerator = child<QComboBox>(dialog, "accelerator");
        accelerator->setCurrentIndex(accelerator->findData(u"tcg"_s));
        auto *state = child<QLabel>(dialog, "connectionState");
        child<QLineEdit>(dialog, "libvirt-uri")->setText(u"qemu:///system"_s);
        child<QPushButton>(dialog, "checkConnection")->click();
        // The click returns at once; the answer comes back later.
        QVERIFY(state->text().startsWith(u"Checking qemu:///system"_s));
        QTRY_VERIFY_WITH_TIMEOUT(!state->text().startsWith(u"Checking"_s), 60000);
        QVERIFY2(state->text().startsWith(u"Connected to qemu:///system (libvirt "_s) &&
                     state->text().contains(u"Turns run under TCG"_s),
                 qPrintable(state->text()));
        screenshot(dialog, u"settings-dialog"_s);

        child<QLineEdit>(dialog, "libvirt-uri")
            ->setText(u"qemu+unix:///system?socket=/nonexistent/libvirt-sock"_s);
        child<QPushButton>(dialog, "checkConnection")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!state->text().startsWith(u"Checking"_s), 60000);
        QVERIFY2(state->text().startsWith(u"Cannot connect to qemu+unix:///system"_s),
                 qPrintable(state->text()));
    }

    void aMissingImageBuilderIsSaidPlainly()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        desktop::SettingsDialog dialog(*store, nullptr);
        qputenv("ARIZUKO_GUEST_IMAGE_BUILDER", "/nonexistent/build-guest-image");
        child<QPushButton>(dialog, "buildImage")->click();
        qunsetenv("ARIZUKO_GUEST_IMAGE_BUILDER");
        const QString log = child<QPlainTextEdit>(dialog, "imageLog")->toPlainText();
        QVERIFY2(log.startsWith(u"Cannot build: the guest image builder was not found (looked at "
                                u"/nonexistent/build-guest-image)"_s),
                 qPrintable(log));
        QVERIFY(!dialog.imagePanel()->imageBuild()->isRunning());
    }

    // The real builder (found as the window finds it) into a scratch
    // directory, cancelled from the dialog once it reports a step: a whole
    // build takes minutes (downloads, a 200 MB root image), too slow here.
    void theImageBuildShowsProgressAndCancels()
    {
        QTemporaryDir dir;
        QTemporaryDir output;
        auto store = openStore(dir);
        desktop::SettingsDialog dialog(*store, nullptr);
        auto builder = host::locateGuestImageBuilder();
        QVERIFY2(builder, qPrintable(builder ? QString() : builder.error().message));
        builder->outputDirectory = output.path();
        dialog.imagePanel()->buildWith(*builder, true);
        auto *progress = child<QProgressBar>(dialog, "imageProgress");
        auto *build = child<QPushButton>(dialog, "buildImage");
        auto *cancel = child<QPushButton>(dialog, "cancelImageBuild");
        QVERIFY(!build->isEnabled() && cancel->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 5, 60000);
        QVERIFY(progress->text().contains(u"resolving input versions"_s));
        QVERIFY(child<QPlainTextEdit>(dialog, "imageLog")->toPlainText().contains(u"build-guest-image: ["_s));
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(build->isEnabled(), 20000);
        QVERIFY(!cancel->isEnabled());
        QVERIFY(!dialog.imagePanel()->imageBuild()->isRunning());
        QVERIFY(child<QPlainTextEdit>(dialog, "imageLog")->toPlainText().endsWith(u"Cancelled."_s));
        QVERIFY(!QFileInfo::exists(output.filePath(u"vmlinux"_s)));
    }
};

QTEST_MAIN(SettingsDialogTest)
#include "test_settings_dialog.moc"
