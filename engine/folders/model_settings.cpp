#include "folders/model_settings.h"

#include "folders/folder_config.h"

#include <QJsonArray>
#include <QJsonObject>

namespace arizuko::folders {

namespace {

const QString section = QStringLiteral("model_gateway");
const QString modelsKey = QStringLiteral("models");
const QString webSearchKey = QStringLiteral("provider_web_search");

ModelSettings settingsOf(const QJsonObject &own)
{
    ModelSettings settings;
    if (own.value(modelsKey).isArray()) {
        QStringList models;
        for (const QJsonValue &model : own.value(modelsKey).toArray())
            models << model.toString();
        settings.models = models;
    }
    if (own.value(webSearchKey).isBool())
        settings.providerWebSearch = own.value(webSearchKey).toBool();
    return settings;
}

} // namespace

Result<ModelSettings> ownModelSettings(store::Store &store, const QString &folder)
{
    const Result<QJsonObject> own = ownConfigSection(store, folder, section);
    if (!own)
        return own.error();
    return settingsOf(*own);
}

Result<ModelSettings> modelSettings(store::Store &store, const QString &folder)
{
    const Result<QList<QJsonObject>> sections = inheritedConfigSections(store, folder, section);
    if (!sections)
        return sections.error();
    ModelSettings settings;
    for (const QJsonObject &scope : *sections) {
        const ModelSettings own = settingsOf(scope);
        if (!settings.models)
            settings.models = own.models;
        if (!settings.providerWebSearch)
            settings.providerWebSearch = own.providerWebSearch;
    }
    return settings;
}

Result<void> setModelSettings(store::Store &store, const QString &folder,
                              const ModelSettings &settings, const QString &actor)
{
    QJsonObject own;
    if (settings.models)
        own.insert(modelsKey, QJsonArray::fromStringList(*settings.models));
    if (settings.providerWebSearch)
        own.insert(webSearchKey, *settings.providerWebSearch);
    return replaceConfigSection(store, folder, section, own,
                                QStringLiteral("folder.model-settings"), actor);
}

} // namespace arizuko::folders
