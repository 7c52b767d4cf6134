#include "host/guest_image_build.h"

#include "host/guest_image.h"
#include "host/helper_programs.h"

#include <QFileInfo>
#include <QProcessEnvironment>
#include <algorithm>
#include <signal.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace arizuko::host {
namespace {

struct StepProgress
{
    QLatin1StringView prefix;
    int percent;
};

// The script's step lines in the order a full build prints them.
constexpr StepProgress steps[] = {
    {"resolving input versions"_L1, 5},
    {"building guest image"_L1, 10},
    {"downloading"_L1, 25},
    {"extracting packages"_L1, 45},
    {"resolving modules"_L1, 55},
    {"writing initramfs.img"_L1, 65},
    {"writing root.img"_L1, 75},
    {"extracting the uncompressed kernel"_L1, 88},
    {"writing manifest.json"_L1, 95},
    {"done"_L1, 100},
};

} // namespace

Result<GuestImageBuilder> locateGuestImageBuilder()
{
    // A builder named in the environment is the only one looked at.
    const QString named = qEnvironmentVariable("ARIZUKO_GUEST_IMAGE_BUILDER");
    QStringList candidates =
        !named.isEmpty()
            ? QStringList{named}
            : QStringList{helperProgram(QStringLiteral("build-guest-image")),
                          QStringLiteral(ARIZUKO_SOURCE_DIR "/installer/build-guest-image")};
    candidates.removeAll(QString());
    GuestImageBuilder builder;
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isExecutable()) {
            builder.script = QFileInfo(candidate).absoluteFilePath();
            break;
        }
    }
    if (builder.script.isEmpty())
        return makeError(
            QStringLiteral("host.no-image-builder"),
            QStringLiteral("the guest image builder was not found (looked at %1); set "
                           "ARIZUKO_GUEST_IMAGE_BUILDER to installer/build-guest-image of a "
                           "source tree")
                .arg(candidates.join(QStringLiteral(", "))));
    builder.guestBinary = siblingGuestProgram();
    if (builder.guestBinary.isEmpty())
        return makeError(
            QStringLiteral("host.no-guest-binary"),
            QStringLiteral("there is no arizuko-guest (looked at %1) for the image to carry; "
                           "build the arizuko-guest target")
                .arg(helperSearchPath(QStringLiteral("arizuko-guest"))));
    builder.outputDirectory = guestImageDirectory();
    return builder;
}

GuestImageBuild::GuestImageBuild(QObject *parent)
    : QObject(parent)
{
    QProcess &child = m_child.process();
    child.setProcessChannelMode(QProcess::MergedChannels);
    // Its own process group, so cancel reaches apt-get, npm and mkfs too.
    child.setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(&m_child, &process::LineProcess::lineRead, this, &GuestImageBuild::readLine);
    connect(&m_child, &process::LineProcess::ended, this, [this](const process::ProcessEnd &end) {
        if (!end.started)
            emit finished(
                Outcome::Failed,
                QStringLiteral("cannot start %1: %2").arg(m_child.process().program(), end.error));
        else if (m_cancelled)
            emit finished(Outcome::Cancelled, QStringLiteral("cancelled"));
        else if (!end.crashed && end.exitCode == 0)
            emit finished(Outcome::Built, m_lastLine);
        else
            emit finished(Outcome::Failed,
                          m_lastLine.isEmpty()
                              ? QStringLiteral("the builder exited with %1").arg(end.exitCode)
                              : m_lastLine);
    });
}

GuestImageBuild::~GuestImageBuild()
{
    // No signal from a half-destroyed owner's member: end the build quietly.
    m_child.disconnect(this);
    cancel();
    m_child.process().waitForFinished(5000);
}

void GuestImageBuild::start(const GuestImageBuilder &builder, bool force)
{
    if (isRunning())
        return;
    m_cancelled = false;
    m_lastLine.clear();
    m_percent = 0;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("ARIZUKO_GUEST_IMAGE_DIR"), builder.outputDirectory);
    m_child.process().setProcessEnvironment(environment);
    QStringList arguments{QStringLiteral("--guest-binary"), builder.guestBinary};
    if (force)
        arguments << QStringLiteral("--force");
    emit progress(0, QStringLiteral("starting %1").arg(builder.script));
    m_child.process().start(builder.script, arguments);
}

void GuestImageBuild::cancel()
{
    if (!isRunning())
        return;
    m_cancelled = true;
    if (const qint64 pid = m_child.process().processId(); pid > 0)
        ::kill(-pid_t(pid), SIGTERM);
}

QString GuestImageBuild::stepOf(const QString &line)
{
    // "build-guest-image: [  12.3s] writing root.img (ext4)"
    const qsizetype close = line.indexOf(QStringLiteral("s] "));
    if (!line.startsWith(QStringLiteral("build-guest-image: [")) || close < 0)
        return {};
    return line.mid(close + 3);
}

int GuestImageBuild::progressOf(const QString &line)
{
    const QString step = stepOf(line);
    if (step.isEmpty())
        return -1;
    if (step.startsWith(u"guest image in ") && step.contains(u"is up to date"))
        return 100;
    for (const StepProgress &known : steps) {
        if (step.startsWith(known.prefix))
            return known.percent;
    }
    return -1;
}

void GuestImageBuild::readLine(const QByteArray &bytes)
{
    const QString line = QString::fromUtf8(bytes).trimmed();
    if (line.isEmpty())
        return;
    m_lastLine = line;
    emit logLine(line);
    // Every step shows; one of no known place (pi's bundling) keeps the
    // percentage of the step before it.
    if (const QString step = stepOf(line); !step.isEmpty()) {
        m_percent = std::max(m_percent, progressOf(line));
        emit progress(m_percent, step);
    }
}

} // namespace arizuko::host
