#include "guest_image_panel.h"

#include "safe_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace arizuko::desktop {

GuestImagePanel::GuestImagePanel(QString imageDirectory, QWidget *parent)
    : QWidget(parent)
    , m_directory(std::move(imageDirectory))
    , m_state(new QLabel(this))
    , m_buildButton(new QPushButton(tr("&Build guest image"), this))
    , m_cancelButton(new QPushButton(tr("Cancel build"), this))
    , m_progress(new QProgressBar(this))
    , m_log(new QPlainTextEdit(this))
{
    m_state->setObjectName(QStringLiteral("imageState"));
    m_state->setWordWrap(true);
    m_state->setTextFormat(Qt::PlainText);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_buildButton->setObjectName(QStringLiteral("buildImage"));
    m_cancelButton->setObjectName(QStringLiteral("cancelImageBuild"));
    m_cancelButton->setEnabled(false);
    m_progress->setObjectName(QStringLiteral("imageProgress"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    m_log->setObjectName(QStringLiteral("imageLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    m_log->setAccessibleName(tr("Guest image build log"));
    m_log->setVisible(false);
    m_log->setMinimumHeight(90);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_buildButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_progress, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_state);
    layout->addLayout(buttons);
    layout->addWidget(m_log);

    connect(m_buildButton, &QPushButton::clicked, this, &GuestImagePanel::build);
    connect(m_cancelButton, &QPushButton::clicked, this, &GuestImagePanel::cancel);
    connect(&m_build, &host::GuestImageBuild::progress, this,
            [this](int percent, const QString &step) {
                m_progress->setValue(percent);
                m_progress->setFormat(tr("%p% — %1").arg(printable(step, 80)));
            });
    connect(&m_build, &host::GuestImageBuild::logLine, this,
            [this](const QString &line) { m_log->appendPlainText(printable(line, 400)); });
    connect(&m_build, &host::GuestImageBuild::finished, this, &GuestImagePanel::onFinished);
    connect(&m_inspection, &QFutureWatcher<host::GuestImageStatus>::finished, this,
            [this] { showStatus(m_inspection.result()); });
    refresh();
}

void GuestImagePanel::refresh()
{
    if (m_inspection.isRunning())
        return;
    m_state->setText(tr("Checking the guest image in %1…").arg(m_directory));
    // Hashes the guest program against the manifest: off the GUI thread.
    m_inspection.setFuture(QtConcurrent::run(
        [directory = m_directory] { return host::inspectGuestImage(directory); }));
}

void GuestImagePanel::showStatus(const host::GuestImageStatus &status)
{
    m_status = status;
    m_state->setText(status.present
                         ? tr("Present and up to date in %1.").arg(status.directory)
                         : tr("Cannot be used in %1: %2. Press Build guest image (several "
                              "minutes the first time: it downloads Debian packages and Claude "
                              "Code).")
                               .arg(status.directory, host::guestImageFault(status)));
    emit statusChanged(status);
}

void GuestImagePanel::build()
{
    const auto builder = host::locateGuestImageBuilder();
    if (!builder) {
        m_log->setVisible(true);
        m_log->appendPlainText(tr("Cannot build: %1").arg(builder.error().message));
        m_state->setText(tr("The guest image builder was not found; see the log below."));
        return;
    }
    host::GuestImageBuilder into = *builder;
    into.outputDirectory = m_directory;
    buildWith(into);
}

void GuestImagePanel::buildWith(const host::GuestImageBuilder &builder, bool force)
{
    if (m_build.isRunning())
        return;
    m_log->clear();
    m_log->setVisible(true);
    m_progress->setVisible(true);
    m_progress->setValue(0);
    m_buildButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_build.start(builder, force);
}

void GuestImagePanel::cancel()
{
    m_build.cancel();
}

void GuestImagePanel::onFinished(host::GuestImageBuild::Outcome outcome, const QString &summary)
{
    m_buildButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    switch (outcome) {
    case host::GuestImageBuild::Outcome::Built:
        m_progress->setValue(100);
        m_log->appendPlainText(tr("Built."));
        break;
    case host::GuestImageBuild::Outcome::Cancelled:
        m_log->appendPlainText(tr("Cancelled."));
        m_progress->setFormat(tr("cancelled"));
        break;
    case host::GuestImageBuild::Outcome::Failed:
        m_log->appendPlainText(tr("Failed: %1").arg(printable(summary, 400)));
        m_progress->setFormat(tr("failed"));
        break;
    }
    refresh();
}

} // namespace arizuko::desktop
