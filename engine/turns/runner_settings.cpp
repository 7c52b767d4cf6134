#include "turns/runner_settings.h"

#include "host/guest_image.h"
#include "host/host_status.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace arizuko::turns {
namespace {

Result<int> positiveNumber(const char *variable, int fallback)
{
    const QString text = qEnvironmentVariable(variable);
    if (text.isEmpty())
        return fallback;
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value <= 0)
        return makeError(
            QStringLiteral("turns.bad-setting"),
            QStringLiteral("%1='%2' is not a positive number").arg(QLatin1String(variable), text));
    return value;
}

// Whether this process may create network devices (CAP_NET_ADMIN in its
// effective set, /proc/self/status CapEff).
bool hasNetAdmin()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (!line.startsWith("CapEff:"))
            continue;
        bool ok = false;
        const qulonglong effective = line.mid(7).trimmed().toULongLong(&ok, 16);
        constexpr int capNetAdmin = 12;
        return ok && (effective >> capNetAdmin & 1U);
    }
    return false;
}

} // namespace

Result<libvirt::FilterMode> parseFilterMode(const QString &text)
{
    if (text == QLatin1String("pretap"))
        return libvirt::FilterMode::Pretap;
    if (text == QLatin1String("classic"))
        return libvirt::FilterMode::Classic;
    if (text.isEmpty() || text == QLatin1String("auto"))
        return hasNetAdmin() ? libvirt::FilterMode::Pretap : libvirt::FilterMode::Classic;
    return makeError(QStringLiteral("turns.bad-setting"),
                     QStringLiteral("ARIZUKO_FILTER_MODE='%1' is not one of auto, pretap, classic")
                         .arg(text));
}

QString filterModeName(libvirt::FilterMode mode)
{
    return mode == libvirt::FilterMode::Pretap ? QStringLiteral("pretap")
                                               : QStringLiteral("classic");
}

QString defaultEgressProgram()
{
    const QString beside =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("arizuko-egress"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("arizuko-egress"));
    return onPath.isEmpty() ? beside : onPath;
}

Result<RunnerSettings> RunnerSettings::fromEnvironment()
{
    RunnerSettings settings;
    settings.libvirtUri = host::defaultLibvirtUri();
    settings.guestImageDirectory = host::guestImageDirectory();
    settings.egressProgram = qEnvironmentVariable("ARIZUKO_EGRESS_BIN", defaultEgressProgram());
    settings.subnetPool = qEnvironmentVariable("ARIZUKO_SUBNET_POOL", settings.subnetPool);
    const auto accelerator =
        libvirt::parseAcceleratorSetting(qEnvironmentVariable("ARIZUKO_ACCELERATOR"));
    if (!accelerator)
        return accelerator.error();
    settings.accelerator = *accelerator;
    const auto filterMode = parseFilterMode(qEnvironmentVariable("ARIZUKO_FILTER_MODE"));
    if (!filterMode)
        return filterMode.error();
    settings.filterMode = *filterMode;

    const auto maxTurns = positiveNumber("ARIZUKO_MAX_TURNS", settings.maxConcurrentTurns);
    const auto deadline =
        positiveNumber("ARIZUKO_TURN_DEADLINE", int(settings.defaultDeadline.count()));
    const auto health =
        positiveNumber("ARIZUKO_PROXY_HEALTH_TIMEOUT_MS", int(settings.proxyHealthTimeout.count()));
    const auto memory = positiveNumber("ARIZUKO_TURN_MEMORY_MIB", settings.memoryMiB);
    const auto depth = positiveNumber("ARIZUKO_DELEGATION_DEPTH", settings.maxDelegationDepth);
    for (const Result<int> *number : {&maxTurns, &deadline, &health, &memory, &depth}) {
        if (!*number)
            return number->error();
    }
    settings.maxConcurrentTurns = *maxTurns;
    settings.defaultDeadline = std::chrono::seconds(*deadline);
    settings.proxyHealthTimeout = std::chrono::milliseconds(*health);
    settings.memoryMiB = *memory;
    settings.maxDelegationDepth = *depth;
    const auto gatewayPort = positiveNumber("ARIZUKO_GATEWAY_PORT", settings.gatewayPort);
    if (!gatewayPort || *gatewayPort > 65535)
        return makeError(QStringLiteral("turns.bad-setting"),
                         QStringLiteral("ARIZUKO_GATEWAY_PORT is not a port number"));
    settings.gatewayPort = quint16(*gatewayPort);
    settings.proxyAllowsLoopback =
        qEnvironmentVariable("ARIZUKO_PROXY_ALLOW_LOOPBACK") == QLatin1String("1");
    const auto provider = parseModelProviderChoice(qEnvironmentVariable("ARIZUKO_MODEL_PROVIDER"));
    if (!provider)
        return provider.error();
    settings.modelProvider = *provider;
    settings.modelUrl = qEnvironmentVariable("ARIZUKO_MODEL_URL");
    settings.modelScript = qEnvironmentVariable("ARIZUKO_MODEL_SCRIPT");
    settings.model = qEnvironmentVariable("ARIZUKO_MODEL");
    return settings;
}

} // namespace arizuko::turns
