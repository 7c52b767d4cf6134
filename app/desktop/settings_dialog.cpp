#include "settings_dialog.h"

#include "safe_text.h"

#include "store/store.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace arizuko::desktop {
namespace {

QString acceleratorText(libvirt::AcceleratorSetting setting)
{
    switch (setting) {
    case libvirt::AcceleratorSetting::Kvm:
        return SettingsDialog::tr("KVM (forced)");
    case libvirt::AcceleratorSetting::Tcg:
        return SettingsDialog::tr("TCG (forced)");
    case libvirt::AcceleratorSetting::Auto:
        break;
    }
    return SettingsDialog::tr("auto: KVM when a guest really boots under it, else TCG "
                              "(the Machine tab says which and why)");
}

} // namespace

SettingsDialog::SettingsDialog(const store::Store &store, const turns::RunnerSettings &settings,
                               QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    auto *intro = new QLabel(tr("Read-only for now: each setting comes from the environment "
                                "variable beside it, read when the window starts."),
                             this);
    intro->setWordWrap(true);
    auto *form = new QFormLayout;
    const auto row = [this, form](const QString &name, const QString &value, const char *variable) {
        auto *label = new QLabel(tr("%1    (%2)").arg(printable(value, 300), QString::fromLatin1(variable)), this);
        label->setObjectName(QString::fromLatin1(variable));
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        label->setAccessibleName(name);
        form->addRow(name + QLatin1Char(':'), label);
    };
    const QString unset = tr("(default)");
    row(tr("libvirt URI"), settings.libvirtUri.isEmpty() ? unset : settings.libvirtUri,
        "ARIZUKO_LIBVIRT_URI");
    row(tr("Accelerator"), acceleratorText(settings.accelerator), "ARIZUKO_ACCELERATOR");
    row(tr("Guest image"), settings.guestImageDirectory.isEmpty() ? unset : settings.guestImageDirectory,
        "ARIZUKO_GUEST_IMAGE_DIR");
    row(tr("Model provider"), turns::modelProviderChoiceName(settings.modelProvider),
        "ARIZUKO_MODEL_PROVIDER");
    row(tr("Compatible model URL"), settings.modelUrl.isEmpty() ? unset : settings.modelUrl,
        "ARIZUKO_MODEL_URL");
    row(tr("Subnet pool"), settings.subnetPool, "ARIZUKO_SUBNET_POOL");
    row(tr("Turns at once"), QString::number(settings.maxConcurrentTurns), "ARIZUKO_MAX_TURNS");
    row(tr("Default deadline"),
        tr("%1 min").arg(settings.defaultDeadline.count() / 60),
        "ARIZUKO_TURN_DEADLINE");
    row(tr("Data directory"), store.dataDir(), "ARIZUKO_DATA_DIR");
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addStretch();
    layout->addWidget(buttons);
    resize(760, 380);
}

} // namespace arizuko::desktop
