#include "folders/model_settings.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "store/query.h"
#include "store/store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace arizuko::folders {

namespace {

const QString section = QStringLiteral("model_gateway");
const QString modelsKey = QStringLiteral("models");
const QString webSearchKey = QStringLiteral("provider_web_search");

// The folder's whole config object; nullopt when there is no such folder.
Result<std::optional<QJsonObject>> config(store::Store &store, const QString &folder)
{
    Result<QSqlQuery> query = store::execute(
        store.database(), QStringLiteral("SELECT config FROM groups WHERE folder = ?"), {folder});
    if (!query)
        return query.error();
    if (!query->next())
        return std::optional<QJsonObject>();
    return std::optional<QJsonObject>(
        QJsonDocument::fromJson(query->value(0).toString().toUtf8()).object());
}

ModelSettings settingsOf(const QJsonObject &config)
{
    const QJsonObject own = config.value(section).toObject();
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

Error notFound(const QString &folder)
{
    return makeError(QStringLiteral("folder.not-found"),
                     QStringLiteral("no folder '%1'").arg(folder));
}

} // namespace

Result<ModelSettings> ownModelSettings(store::Store &store, const QString &folder)
{
    const auto found = config(store, folder);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(folder);
    return settingsOf(**found);
}

Result<ModelSettings> modelSettings(store::Store &store, const QString &folder)
{
    ModelSettings settings;
    for (const QString &scope : folderAndAncestors(folder)) {
        const auto found = config(store, scope);
        if (!found)
            return found.error();
        if (!*found)
            continue;
        const ModelSettings own = settingsOf(**found);
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
    audit::AuditLog log(store);
    return log.writeAudited([&]() -> Result<void> {
        const auto found = config(store, folder);
        if (!found)
            return found.error();
        if (!*found)
            return notFound(folder);
        QJsonObject whole = **found;
        QJsonObject own;
        if (settings.models)
            own.insert(modelsKey, QJsonArray::fromStringList(*settings.models));
        if (settings.providerWebSearch)
            own.insert(webSearchKey, *settings.providerWebSearch);
        if (own.isEmpty())
            whole.remove(section);
        else
            whole.insert(section, own);
        if (const Result<QSqlQuery> updated = store::execute(
                store.database(), QStringLiteral("UPDATE groups SET config = ? WHERE folder = ?"),
                {QString::fromUtf8(QJsonDocument(whole).toJson(QJsonDocument::Compact)), folder});
            !updated)
            return updated.error();
        if (const Result<qint64> audited =
                log.record(actor, QStringLiteral("folder.model-settings"), folder, own);
            !audited)
            return audited.error();
        return {};
    });
}

} // namespace arizuko::folders
