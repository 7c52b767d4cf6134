#include "folders/network_settings.h"

#include "folders/folder_config.h"

#include <QJsonObject>

namespace arizuko::folders {

namespace {

const QString section = QStringLiteral("network");
const QString unlistedKey = QStringLiteral("unlisted_hosts");
const QString timeoutKey = QStringLiteral("ask_timeout_seconds");

NetworkSettings settingsOf(const QJsonObject &own)
{
    NetworkSettings settings;
    settings.unlisted = unlistedHostsFromName(own.value(unlistedKey).toString());
    if (own.value(timeoutKey).isDouble())
        settings.askTimeout = std::chrono::seconds(own.value(timeoutKey).toInteger());
    return settings;
}

} // namespace

QString unlistedHostsName(UnlistedHosts value)
{
    return value == UnlistedHosts::Ask ? QStringLiteral("ask") : QStringLiteral("deny");
}

std::optional<UnlistedHosts> unlistedHostsFromName(const QString &name)
{
    if (name == QLatin1String("ask"))
        return UnlistedHosts::Ask;
    if (name == QLatin1String("deny"))
        return UnlistedHosts::Deny;
    return std::nullopt;
}

Result<NetworkSettings> ownNetworkSettings(store::Store &store, const QString &folder)
{
    const Result<QJsonObject> own = ownConfigSection(store, folder, section);
    if (!own)
        return own.error();
    return settingsOf(*own);
}

Result<NetworkSettings> networkSettings(store::Store &store, const QString &folder)
{
    const Result<QList<QJsonObject>> sections = inheritedConfigSections(store, folder, section);
    if (!sections)
        return sections.error();
    NetworkSettings settings;
    for (const QJsonObject &scope : *sections) {
        const NetworkSettings own = settingsOf(scope);
        if (!settings.unlisted)
            settings.unlisted = own.unlisted;
        if (!settings.askTimeout)
            settings.askTimeout = own.askTimeout;
    }
    return settings;
}

Result<void> setNetworkSettings(store::Store &store, const QString &folder,
                                const NetworkSettings &settings, const QString &actor)
{
    if (settings.askTimeout &&
        (*settings.askTimeout < minimumAskTimeout || *settings.askTimeout > maximumAskTimeout))
        return makeError(QStringLiteral("folder.invalid-setting"),
                         QStringLiteral("the question timeout must be %1 to %2 seconds")
                             .arg(minimumAskTimeout.count())
                             .arg(maximumAskTimeout.count()));
    QJsonObject own;
    if (settings.unlisted)
        own.insert(unlistedKey, unlistedHostsName(*settings.unlisted));
    if (settings.askTimeout)
        own.insert(timeoutKey, qint64(settings.askTimeout->count()));
    return replaceConfigSection(store, folder, section, own,
                                QStringLiteral("folder.network-settings"), actor);
}

} // namespace arizuko::folders
