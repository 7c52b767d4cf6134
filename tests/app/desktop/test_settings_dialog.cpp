// The read-only settings dialog shows what the engine runs with and the
// variable that changes each setting.

#include "editor_test_support.h"
#include "settings_dialog.h"

using namespace arizuko;
using namespace editor_test;

class SettingsDialogTest final : public QObject
{
    Q_OBJECT

private slots:
    void showsEachSettingWithItsVariable()
    {
        QTemporaryDir dir;
        auto store = openStore(dir);
        turns::RunnerSettings settings;
        settings.libvirtUri = QStringLiteral("qemu:///system");
        settings.maxConcurrentTurns = 3;
        settings.accelerator = libvirt::AcceleratorSetting::Tcg;
        desktop::SettingsDialog dialog(*store, settings);
        QCOMPARE(child<QLabel>(dialog, "ARIZUKO_LIBVIRT_URI")->text(),
                 QStringLiteral("qemu:///system    (ARIZUKO_LIBVIRT_URI)"));
        QVERIFY(child<QLabel>(dialog, "ARIZUKO_MAX_TURNS")->text().startsWith(QStringLiteral("3 ")));
        QVERIFY(child<QLabel>(dialog, "ARIZUKO_ACCELERATOR")->text().startsWith(QStringLiteral("TCG")));
        QVERIFY(child<QLabel>(dialog, "ARIZUKO_DATA_DIR")->text().startsWith(dir.path()));
        QVERIFY(child<QLabel>(dialog, "ARIZUKO_TURN_DEADLINE")->text().startsWith(QStringLiteral("30 min ")));
        screenshot(dialog, QStringLiteral("settings-dialog"));
    }
};

QTEST_MAIN(SettingsDialogTest)
#include "test_settings_dialog.moc"
