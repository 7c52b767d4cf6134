#include "folders/folder_config.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "store/query.h"
#include "store/store.h"

#include <QJsonDocument>

namespace arizuko::folders {

Result<std::optional<QJsonObject>> folderConfig(store::Store &store, const QString &folder)
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

namespace {

Error folderNotFound(const QString &folder)
{
    return makeError(QStringLiteral("folder.not-found"),
                     QStringLiteral("no folder '%1'").arg(folder));
}

} // namespace

Result<QJsonObject> ownConfigSection(store::Store &store, const QString &folder,
                                     const QString &section)
{
    const auto found = folderConfig(store, folder);
    if (!found)
        return found.error();
    if (!*found)
        return folderNotFound(folder);
    return (*found)->value(section).toObject();
}

Result<QList<QJsonObject>> inheritedConfigSections(store::Store &store, const QString &folder,
                                                   const QString &section)
{
    QList<QJsonObject> sections;
    for (const QString &scope : folderAndAncestors(folder)) {
        const auto found = folderConfig(store, scope);
        if (!found)
            return found.error();
        if (*found)
            sections << (*found)->value(section).toObject();
    }
    return sections;
}

Result<void> replaceConfigSection(store::Store &store, const QString &folder,
                                  const QString &section, const QJsonObject &own,
                                  const QString &kind, const QString &actor)
{
    audit::AuditLog log(store);
    return log.writeAudited([&]() -> Result<void> {
        const auto found = folderConfig(store, folder);
        if (!found)
            return found.error();
        if (!*found)
            return folderNotFound(folder);
        QJsonObject whole = **found;
        if (own.isEmpty())
            whole.remove(section);
        else
            whole.insert(section, own);
        if (const Result<QSqlQuery> updated = store::execute(
                store.database(), QStringLiteral("UPDATE groups SET config = ? WHERE folder = ?"),
                {QString::fromUtf8(QJsonDocument(whole).toJson(QJsonDocument::Compact)), folder});
            !updated)
            return updated.error();
        if (const Result<qint64> audited = log.record(actor, kind, folder, own); !audited)
            return audited.error();
        return {};
    });
}

} // namespace arizuko::folders
