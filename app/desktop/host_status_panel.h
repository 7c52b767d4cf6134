#pragma once

// The first thing the window shows: whether this machine can run turns
// (libvirt, KVM or TCG, the guest image), with advice where it cannot.

#include "host/host_status.h"

#include <QFutureWatcher>
#include <QWidget>
#include <memory>

class QLabel;
class QPushButton;

// Only the machine check's worker reaches libvirt: its settings are all
// the window holds of it.
namespace arizuko::libvirt {
struct MachineSettings;
}

namespace arizuko::desktop {

class HostStatusPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit HostStatusPanel(const libvirt::MachineSettings &settings, QWidget *parent = nullptr);
    ~HostStatusPanel() override;

    // Collects the status again, off the GUI thread (the KVM probe and the
    // libvirt connection can take seconds).
    void refresh();

signals:
    void refreshed(const arizuko::host::HostStatus &status);

private:
    void show(const host::HostStatus &status);

    std::unique_ptr<const libvirt::MachineSettings> m_settings;
    QLabel *m_libvirt;
    QLabel *m_accelerator;
    QLabel *m_guestImage;
    QLabel *m_summary;
    QPushButton *m_refresh;
    QFutureWatcher<host::HostStatus> m_watcher;
};

} // namespace arizuko::desktop
