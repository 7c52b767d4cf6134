#include "turns/runner_settings.h"

#include "host/guest_image.h"
#include "host/helper_programs.h"
#include "libvirt/net_admin.h"

#include <QFile>
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

} // namespace

Result<libvirt::FilterMode> parseFilterMode(const QString &text)
{
    if (text == QLatin1String("pretap"))
        return libvirt::FilterMode::Pretap;
    if (text == QLatin1String("classic"))
        return libvirt::FilterMode::Classic;
    if (text.isEmpty() || text == QLatin1String("auto"))
        return libvirt::canTakeNetAdminSteps() ? libvirt::FilterMode::Pretap
                                               : libvirt::FilterMode::Classic;
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
    const QString name = QStringLiteral("arizuko-egress");
    if (const QString helper = host::helperProgram(name); !helper.isEmpty())
        return helper;
    const QString onPath = QStandardPaths::findExecutable(name);
    return onPath.isEmpty() ? name : onPath;
}

Result<RunnerSettings> RunnerSettings::load(store::Store &store)
{
    const auto saved = SavedSettings(store).load();
    if (!saved)
        return saved.error();
    return fromLayers(*saved);
}

Result<RunnerSettings> RunnerSettings::fromEnvironment()
{
    return fromLayers({});
}

Result<RunnerSettings> RunnerSettings::fromLayers(const SettingValues &saved)
{
    SettingValues values;
    for (const EffectiveSetting &effective : effectiveSettings(saved)) {
        const SettingDefinition &definition = effective.definition;
        if (const auto problem = settingProblem(definition.key, effective.value)) {
            const QString where =
                effective.source == SettingSource::Environment
                    ? QString::fromLatin1(definition.environmentVariable)
                    : QStringLiteral("the saved setting %1 (change it with `arizukoctl settings "
                                     "set %1 VALUE`)")
                          .arg(definition.key);
            return makeError(QStringLiteral("turns.bad-setting"),
                             QStringLiteral("%1: %2").arg(where, *problem));
        }
        values.insert(definition.key, effective.value);
    }
    RunnerSettings settings;
    settings.libvirtUri = values.value(setting::libvirtUri);
    settings.subnetPool = values.value(setting::subnetPool);
    // Checked above, so these parse.
    settings.accelerator = *libvirt::parseAcceleratorSetting(values.value(setting::accelerator));
    settings.maxConcurrentTurns = values.value(setting::maxTurns).toInt();
    settings.defaultDeadline = std::chrono::seconds(values.value(setting::turnDeadline).toInt());
    settings.bootLimit = std::chrono::seconds(values.value(setting::bootLimit).toInt());
    settings.modelProvider = *parseModelProviderChoice(values.value(setting::modelProvider));
    settings.modelUrl = values.value(setting::modelUrl);
    settings.model = values.value(setting::model);
    settings.warmStart = values.value(setting::warmStart) == QLatin1String("on");
    settings.maxTurnsPerTurn = values.value(setting::turnsPerTurn).toInt();
    settings.maxTurnsPerFolderHour = values.value(setting::turnsPerFolderHour).toInt();
    settings.historyFileLimitBytes = qint64(values.value(setting::historyFileLimit).toInt()) << 20;
    settings.historyIncludesGit = values.value(setting::historyIncludeGit) == QLatin1String("on");
    settings.historyKeepTurns = values.value(setting::historyKeepTurns).toInt();
    settings.historySizeLimitBytes = qint64(values.value(setting::historySizeLimit).toInt()) << 20;

    settings.guestImageDirectory = host::guestImageDirectory();
    settings.egressProgram = qEnvironmentVariable("ARIZUKO_EGRESS_BIN", defaultEgressProgram());
    const auto filterMode = parseFilterMode(qEnvironmentVariable("ARIZUKO_FILTER_MODE"));
    if (!filterMode)
        return filterMode.error();
    settings.filterMode = *filterMode;
    const auto health =
        positiveNumber("ARIZUKO_PROXY_HEALTH_TIMEOUT_MS", int(settings.proxyHealthTimeout.count()));
    const auto memory = positiveNumber("ARIZUKO_TURN_MEMORY_MIB", settings.memoryMiB);
    const auto depth = positiveNumber("ARIZUKO_DELEGATION_DEPTH", settings.maxDelegationDepth);
    const auto spareAge =
        positiveNumber("ARIZUKO_SPARE_MAX_AGE", int(settings.spareMaxAge.count()));
    for (const Result<int> *number : {&health, &memory, &depth, &spareAge}) {
        if (!*number)
            return number->error();
    }
    settings.proxyHealthTimeout = std::chrono::milliseconds(*health);
    settings.memoryMiB = *memory;
    settings.maxDelegationDepth = *depth;
    settings.spareMaxAge = std::chrono::seconds(*spareAge);
    const auto gatewayPort = positiveNumber("ARIZUKO_GATEWAY_PORT", settings.gatewayPort);
    if (!gatewayPort || *gatewayPort > 65535)
        return makeError(QStringLiteral("turns.bad-setting"),
                         QStringLiteral("ARIZUKO_GATEWAY_PORT is not a port number"));
    settings.gatewayPort = quint16(*gatewayPort);
    settings.proxyAllowsLoopback =
        qEnvironmentVariable("ARIZUKO_PROXY_ALLOW_LOOPBACK") == QLatin1String("1");
    settings.modelScript = qEnvironmentVariable("ARIZUKO_MODEL_SCRIPT");
    const QString prestart = qEnvironmentVariable("ARIZUKO_PRESTART", QStringLiteral("on"));
    if (prestart != QLatin1String("on") && prestart != QLatin1String("off"))
        return makeError(QStringLiteral("turns.bad-setting"),
                         QStringLiteral("ARIZUKO_PRESTART: '%1' is not on or off").arg(prestart));
    settings.prestartAgent = prestart == QLatin1String("on");
    return settings;
}

} // namespace arizuko::turns
