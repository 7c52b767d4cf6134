#pragma once

// Runs installer/build-guest-image as a child process for the window: the
// script's step lines become a progress value and a log, the whole process
// group can be cancelled, and nothing waits on it (signals only).

#include "core/result.h"
#include "process/line_process.h"

#include <QObject>
#include <QString>

namespace arizuko::host {

struct GuestImageBuilder
{
    QString script;      // installer/build-guest-image
    QString guestBinary; // the arizuko-guest the image must carry
    QString outputDirectory;
};

// The builder script: $ARIZUKO_GUEST_IMAGE_BUILDER (then only it), else the
// installed helper (host/helper_programs.h), else this build's source tree
// (installer/build-guest-image). With the guest binary of this build or
// package and the image directory turns use. An error says what was looked
// for where.
Result<GuestImageBuilder> locateGuestImageBuilder();

class GuestImageBuild final : public QObject
{
    Q_OBJECT

public:
    enum class Outcome { Built, Failed, Cancelled };
    Q_ENUM(Outcome)

    explicit GuestImageBuild(QObject *parent = nullptr);
    ~GuestImageBuild() override;

    bool isRunning() const { return m_child.process().state() != QProcess::NotRunning; }
    void start(const GuestImageBuilder &builder, bool force = false);
    // Ends the script and everything it started (apt-get, npm, mkfs).
    void cancel();

    // The step a line of the script names ("writing root.img (ext4)"), or
    // empty for a line that is not a step.
    static QString stepOf(const QString &line);
    // The percentage a step line of the script stands for, or -1 for a line
    // that is not a step or a step of no known place in the build.
    static int progressOf(const QString &line);

signals:
    // Each step line of the script, with the percentage the build has reached.
    void progress(int percent, const QString &step);
    void logLine(const QString &line);
    void finished(arizuko::host::GuestImageBuild::Outcome outcome, const QString &summary);

private:
    void readLine(const QByteArray &bytes);

    process::LineProcess m_child{QProcess::StandardOutput};
    QString m_lastLine;
    int m_percent = 0;
    bool m_cancelled = false;
};

} // namespace arizuko::host
