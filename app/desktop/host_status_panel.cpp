#include "host_status_panel.h"

#include "libvirt/machine_status.h"

#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace arizuko::desktop {
namespace {

QLabel *makeValueLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

} // namespace

HostStatusPanel::HostStatusPanel(const libvirt::MachineSettings &settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(std::make_unique<const libvirt::MachineSettings>(settings))
    , m_libvirt(makeValueLabel(this))
    , m_accelerator(makeValueLabel(this))
    , m_guestImage(makeValueLabel(this))
    , m_summary(new QLabel(this))
    , m_refresh(new QPushButton(tr("&Check again"), this))
{
    m_libvirt->setObjectName(QStringLiteral("libvirtState"));
    m_accelerator->setObjectName(QStringLiteral("acceleratorState"));
    m_guestImage->setObjectName(QStringLiteral("guestImageState"));
    m_summary->setObjectName(QStringLiteral("summary"));
    QFont summaryFont = m_summary->font();
    summaryFont.setBold(true);
    m_summary->setFont(summaryFont);

    auto *form = new QFormLayout;
    form->addRow(tr("libvirt:"), m_libvirt);
    form->addRow(tr("Accelerator:"), m_accelerator);
    form->addRow(tr("Guest image:"), m_guestImage);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(form);
    layout->addWidget(m_refresh, 0, Qt::AlignLeft);
    layout->addStretch();

    connect(m_refresh, &QPushButton::clicked, this, &HostStatusPanel::refresh);
    connect(&m_watcher, &QFutureWatcher<host::HostStatus>::finished, this,
            [this] { show(m_watcher.result()); });
}

HostStatusPanel::~HostStatusPanel() = default;

void HostStatusPanel::refresh()
{
    if (m_watcher.isRunning())
        return;
    m_refresh->setEnabled(false);
    m_summary->setText(tr("Checking this machine…"));
    m_watcher.setFuture(QtConcurrent::run(&libvirt::collectMachineStatus, *m_settings));
}

void HostStatusPanel::show(const host::HostStatus &status)
{
    const host::LibvirtStatus &libvirt = status.libvirt;
    m_libvirt->setText(
        libvirt.reachable
            ? tr("%1 reachable (libvirt %2)").arg(libvirt.uri, libvirt.version)
            : tr("%1 NOT reachable: %2\n%3").arg(libvirt.uri, libvirt.error, libvirt.hint));
    m_accelerator->setText(QStringLiteral("%1 — %2").arg(
        host::acceleratorName(status.accelerator.accelerator).toUpper(),
        status.accelerator.reason));
    const host::GuestImageStatus &image = status.guestImage;
    m_guestImage->setText(image.present
                              ? tr("present in %1").arg(image.directory)
                              : tr("cannot be used in %1 (%2): %3")
                                    .arg(image.directory, host::guestImageFault(image),
                                         host::guestImageBuildHint()));
    m_summary->setText(status.readyForTurns() ? tr("This machine is ready to run turns.")
                                              : tr("This machine cannot run turns yet."));
    m_refresh->setEnabled(true);
    emit refreshed(status);
}

} // namespace arizuko::desktop
