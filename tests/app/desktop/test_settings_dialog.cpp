// The settings dialog on a real store, checked against the real arizukoctl:
// each field's refusal beside it, hostile input refused with nothing saved,
// a save (on a worker, Save off meanwhile) read back by arizukoctl, no save
// before the saved settings are read, a change by arizukoctl shown in the
// open dialog, the environment override shown, the libvirt check against the
// real libvirtd, and the image builder's absence said plainly.

#include "editor_test_support.h"
#include "engine/workspace.h"
#include "guest_image_panel.h"
#include "host/guest_image_build.h"
#include "settings_dialog.h"
#include "turns/saved_settings.h"

#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

using namespace arizuko;
using namespace editor_test;

namespace {

QJsonArray savedSettings(const QString &dataDir)
{
    const CtlResult shown =
        arizukoctl(dataDir, {QStringLiteral("settings"), QStringLiteral("show")});
    if (shown.exitCode != 0)
        qFatal("settings show failed: %s", shown.err.constData());
    return shown.json().object().value(QStringLiteral("settings")).toArray();
}

QJsonObject settingIn(const QJsonArray &settings, const QString &key)
{
    for (const QJsonValue &row : settings) {
        if (row.toObject().value(QStringLiteral("key")).toString() == key)
            return row.toObject();
    }
    return {};
}

QLabel *problemOf(const QWidget &dialog, const QString &key)
{
    return child<QLabel>(dialog, qPrintable(key + QStringLiteral("-problem")));
}

// The dialog once its worker has read the saved settings into the fields.
struct ShownDialog
{
    explicit ShownDialog(store::Store &store)
        : workspace(store)
        , dialog(workspace)
    {
        QSignalSpy loaded(&dialog, &desktop::SettingsDialog::loaded);
        if (!loaded.wait(10000))
            qFatal("the settings dialog did not read the saved settings");
    }

    engine::Workspace workspace;
    desktop::SettingsDialog dialog;
};

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
        QTest::newRow("uri") << turns::setting::libvirtUri << QStringLiteral("localhost")
                             << QStringLiteral("is not a libvirt URI");
        QTest::newRow("pool") << turns::setting::subnetPool << QStringLiteral("10.0.0.0/12")
                              << QStringLiteral("the pool must be a /16 to a /30");
        QTest::newRow("pool v6") << turns::setting::subnetPool << QStringLiteral("fd00::/64")
                                 << QStringLiteral("is not an IPv4 network");
        QTest::newRow("url") << turns::setting::modelUrl << QStringLiteral("ftp://models.example")
                             << QStringLiteral("is not an http(s) URL");
        QTest::newRow("model") << turns::setting::model << QStringLiteral("claude sonnet")
                               << QStringLiteral("contains a space");
        const QStringList hostile = hostileInputs();
        for (const QString &key : {turns::setting::libvirtUri, turns::setting::subnetPool,
                                   turns::setting::modelUrl, turns::setting::model}) {
            for (qsizetype index = 0; index < hostile.size(); ++index)
                QTest::addRow("%s hostile %d", qPrintable(key), int(index))
                    << key << hostile.at(index) << QStringLiteral("Refused: ");
        }
    }

    void eachFieldRefusesWithItsReasonAndNothingIsSaved()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, QStringLiteral("3")}},
                                                  QStringLiteral("test")));
        const QJsonArray before = savedSettings(dir.path());
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        // A valid change beside the bad one: it must not be saved either.
        child<QSpinBox>(dialog, "max-turns")->setValue(7);
        child<QLineEdit>(dialog, qPrintable(key))->setText(value);
        QLabel *problem = problemOf(dialog, key);
        QVERIFY(!problem->isHidden());
        QVERIFY2(problem->text().startsWith(QStringLiteral("Refused: ")) &&
                     problem->text().contains(reason),
                 qPrintable(problem->text()));
        // What a person typed never reorders or hides the sentence.
        QVERIFY(!problem->text().contains(QChar(0x202E)) && !problem->text().contains(QChar(0)));
        QVERIFY(problem->text().size() < 600);
        QVERIFY(!dialog.save());
        QVERIFY(child<QLabel>(dialog, "status")
                    ->text()
                    .startsWith(QStringLiteral("Nothing was saved")));
        QCOMPARE(savedSettings(dir.path()), before);
    }

    void aSaveIsReadBackByArizukoctl()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        child<QSpinBox>(dialog, "max-turns")->setValue(5);
        child<QSpinBox>(dialog, "turn-deadline")->setValue(45);
        auto *provider = child<QComboBox>(dialog, "model-provider");
        provider->setCurrentIndex(provider->findData(QStringLiteral("demo")));
        child<QLineEdit>(dialog, "subnet-pool")->setText(QStringLiteral("10.77.0.0/20"));
        child<QLineEdit>(dialog, "model-url")->setText(QStringLiteral("http://127.0.0.1:9/v1"));
        child<QSpinBox>(dialog, "history-file-limit")->setValue(100);
        auto *includeGit = child<QComboBox>(dialog, "history-include-git");
        includeGit->setCurrentIndex(includeGit->findData(QStringLiteral("on")));
        QVERIFY(problemOf(dialog, turns::setting::subnetPool)->isHidden());
        QSignalSpy finished(&dialog, &desktop::SettingsDialog::saveFinished);
        auto *save = child<QPushButton>(dialog, "save");
        save->click();
        // On a worker: the click returns at once, Save off until the answer.
        QCOMPARE(child<QLabel>(dialog, "status")->text(), QStringLiteral("Saving\u2026"));
        QVERIFY(dialog.isSaving() && !save->isEnabled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(save->isEnabled());
        QVERIFY2(
            child<QLabel>(dialog, "status")->text().startsWith(QStringLiteral("Saved 7 setting")),
            qPrintable(child<QLabel>(dialog, "status")->text()));
        const QJsonArray saved = savedSettings(dir.path());
        QCOMPARE(
            settingIn(saved, QStringLiteral("max-turns")).value(QStringLiteral("value")).toString(),
            QStringLiteral("5"));
        QCOMPARE(settingIn(saved, QStringLiteral("max-turns"))
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("saved"));
        QCOMPARE(settingIn(saved, QStringLiteral("turn-deadline"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("2700"));
        QCOMPARE(settingIn(saved, QStringLiteral("model-provider"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("demo"));
        QCOMPARE(settingIn(saved, QStringLiteral("subnet-pool"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("10.77.0.0/20"));
        QCOMPARE(
            settingIn(saved, QStringLiteral("model-url")).value(QStringLiteral("value")).toString(),
            QStringLiteral("http://127.0.0.1:9/v1"));
        QCOMPARE(settingIn(saved, QStringLiteral("history-file-limit"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("100"));
        QCOMPARE(settingIn(saved, QStringLiteral("history-include-git"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("on"));
        // Untouched fields stay unsaved (defaults).
        QCOMPARE(settingIn(saved, QStringLiteral("libvirt-uri"))
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("default"));
        const CtlResult audit =
            arizukoctl(dir.path(), {QStringLiteral("audit"), QStringLiteral("--kind"),
                                    QStringLiteral("settings")});
        QCOMPARE(audit.json().array().size(), 7);
    }

    // Before the worker's read the fields hold the widgets' own values, not
    // the saved ones: a save then would write those over the saved settings.
    void nothingIsSavedBeforeTheSavedSettingsAreRead()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, QStringLiteral("3")}},
                                                  QStringLiteral("test")));
        const QJsonArray before = savedSettings(dir.path());
        engine::Workspace workspace(*store);
        desktop::SettingsDialog dialog(workspace);
        QSignalSpy loaded(&dialog, &desktop::SettingsDialog::loaded);
        auto *save = child<QPushButton>(dialog, "save");
        QVERIFY(!save->isEnabled());
        QVERIFY(!dialog.save());
        QCOMPARE(child<QLabel>(dialog, "status")->text(),
                 QStringLiteral("Nothing was saved: the saved settings are still being read."));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(savedSettings(dir.path()), before);
        QVERIFY(save->isEnabled());
        QCOMPARE(child<QSpinBox>(dialog, "max-turns")->value(), 3);
        QVERIFY(child<QLabel>(dialog, "status")->text().isEmpty());
    }

    void aChangeByArizukoctlShowsInTheOpenDialog()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        dialog.show();
        auto *pool = child<QLineEdit>(dialog, "subnet-pool");
        QCOMPARE(pool->text(), QStringLiteral("10.213.0.0/16"));
        // A field being edited keeps what the person typed.
        child<QLineEdit>(dialog, "model")->setText(QStringLiteral("typed-here"));
        QCOMPARE(
            arizukoctl(dir.path(), {QStringLiteral("settings"), QStringLiteral("set"),
                                    QStringLiteral("subnet-pool"), QStringLiteral("10.50.0.0/24")})
                .exitCode,
            0);
        QCOMPARE(arizukoctl(dir.path(), {QStringLiteral("settings"), QStringLiteral("set"),
                                         QStringLiteral("model"), QStringLiteral("from-cli")})
                     .exitCode,
                 0);
        QTRY_COMPARE_WITH_TIMEOUT(pool->text(), QStringLiteral("10.50.0.0/24"), 5000);
        QCOMPARE(child<QLineEdit>(dialog, "model")->text(), QStringLiteral("typed-here"));
    }

    void anEnvironmentOverrideIsShown()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        QVERIFY(turns::SavedSettings(*store).save({{turns::setting::maxTurns, QStringLiteral("4")}},
                                                  QStringLiteral("test")));
        qputenv("ARIZUKO_MAX_TURNS", "9");
        // The environment is read when the saved settings come back.
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        qunsetenv("ARIZUKO_MAX_TURNS");
        QLabel *note = child<QLabel>(dialog, "max-turns-environment");
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(QStringLiteral("ARIZUKO_MAX_TURNS=9")),
                 qPrintable(note->text()));
        // The field edits the saved value, not the override.
        QCOMPARE(child<QSpinBox>(dialog, "max-turns")->value(), 4);
        QVERIFY(child<QLabel>(dialog, "turn-deadline-environment")->isHidden());
    }

    void checkConnectionReportsFromAWorker()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        auto *accelerator = child<QComboBox>(dialog, "accelerator");
        accelerator->setCurrentIndex(accelerator->findData(QStringLiteral("tcg")));
        auto *state = child<QLabel>(dialog, "connectionState");
        child<QLineEdit>(dialog, "libvirt-uri")->setText(QStringLiteral("qemu:///system"));
        child<QPushButton>(dialog, "checkConnection")->click();
        // The click returns at once; the answer comes back later.
        QVERIFY(state->text().startsWith(QStringLiteral("Checking qemu:///system")));
        QTRY_VERIFY_WITH_TIMEOUT(!state->text().startsWith(QStringLiteral("Checking")), 60000);
        QVERIFY2(
            state->text().startsWith(QStringLiteral("Connected to qemu:///system (libvirt ")) &&
                state->text().contains(QStringLiteral("Turns run under TCG")),
            qPrintable(state->text()));
        screenshot(dialog, QStringLiteral("settings-dialog"));

        child<QLineEdit>(dialog, "libvirt-uri")
            ->setText(QStringLiteral("qemu+unix:///system?socket=/nonexistent/libvirt-sock"));
        child<QPushButton>(dialog, "checkConnection")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!state->text().startsWith(QStringLiteral("Checking")), 60000);
        QVERIFY2(state->text().startsWith(QStringLiteral("Cannot connect to qemu+unix:///system")),
                 qPrintable(state->text()));
    }

    void aMissingImageBuilderIsSaidPlainly()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        qputenv("ARIZUKO_GUEST_IMAGE_BUILDER", "/nonexistent/build-guest-image");
        child<QPushButton>(dialog, "buildImage")->click();
        qunsetenv("ARIZUKO_GUEST_IMAGE_BUILDER");
        const QString log = child<QPlainTextEdit>(dialog, "imageLog")->toPlainText();
        QVERIFY2(log.startsWith(QStringLiteral(
                     "Cannot build: the guest image builder was not found (looked at "
                     "/nonexistent/build-guest-image)")),
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
        ShownDialog shown(*store);
        desktop::SettingsDialog &dialog = shown.dialog;
        auto builder = host::locateGuestImageBuilder();
        QVERIFY2(builder, qPrintable(builder ? QString() : builder.error().message));
        builder->outputDirectory = output.path();
        dialog.imagePanel()->buildWith(*builder, true);
        auto *progress = child<QProgressBar>(dialog, "imageProgress");
        auto *build = child<QPushButton>(dialog, "buildImage");
        auto *cancel = child<QPushButton>(dialog, "cancelImageBuild");
        QVERIFY(!build->isEnabled() && cancel->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 5, 60000);
        QVERIFY(progress->text().contains(QStringLiteral("resolving input versions")));
        QVERIFY(child<QPlainTextEdit>(dialog, "imageLog")
                    ->toPlainText()
                    .contains(QStringLiteral("build-guest-image: [")));
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(build->isEnabled(), 20000);
        QVERIFY(!cancel->isEnabled());
        QVERIFY(!dialog.imagePanel()->imageBuild()->isRunning());
        QVERIFY(child<QPlainTextEdit>(dialog, "imageLog")
                    ->toPlainText()
                    .endsWith(QStringLiteral("Cancelled.")));
        QVERIFY(!QFileInfo::exists(output.filePath(QStringLiteral("vmlinux"))));
    }
};

QTEST_MAIN(SettingsDialogTest)
#include "test_settings_dialog.moc"
