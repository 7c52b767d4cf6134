#pragma once

// The guest image's state and its Build button: runs the image builder as
// a child process with a progress bar and a log, cancellable; nothing of it
// runs on the GUI thread. Shared by the settings dialog and the first-run
// guide.

#include "host/guest_image.h"
#include "host/guest_image_build.h"

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace arizuko::desktop {

class GuestImagePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit GuestImagePanel(QString imageDirectory, QWidget *parent = nullptr);

    // Re-reads the image's state (on a worker).
    void refresh();
    // Builds with the builder found beside the program or in the source tree.
    void build();
    // Builds with this builder (tests give a scratch output directory).
    void buildWith(const host::GuestImageBuilder &builder, bool force = false);
    void cancel();

    host::GuestImageBuild *imageBuild() { return &m_build; }
    const host::GuestImageStatus &status() const { return m_status; }

signals:
    void statusChanged(const arizuko::host::GuestImageStatus &status);

private:
    void showStatus(const host::GuestImageStatus &status);
    void onFinished(host::GuestImageBuild::Outcome outcome, const QString &summary);

    QString m_directory;
    host::GuestImageStatus m_status;
    host::GuestImageBuild m_build;
    QFutureWatcher<host::GuestImageStatus> m_inspection;
    QLabel *m_state;
    QPushButton *m_buildButton;
    QPushButton *m_cancelButton;
    QProgressBar *m_progress;
    QPlainTextEdit *m_log;
};

} // namespace arizuko::desktop
