#include "folders/folders.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <filesystem>

namespace arizuko::folders {

using store::nowTimestamp;
using store::execute;
namespace {

namespace fs = std::filesystem;

fs::path toPath(const QString &path)
{
    return fs::path(QFile::encodeName(path).toStdString());
}

// A home with anything in it, or a home that is itself a link (pointing at
// something the user put there), holds data a removal would take away.
bool homeHasContent(const QString &home)
{
    std::error_code error;
    const fs::file_status status = fs::symlink_status(toPath(home), error);
    if (error || status.type() == fs::file_type::not_found)
        return false;
    if (status.type() != fs::file_type::directory)
        return true;
    return fs::directory_iterator(toPath(home), error) != fs::directory_iterator();
}

Error notFound(const QString &path)
{
    return makeError(QStringLiteral("folder.not-found"),
                     QStringLiteral("folder '%1' does not exist").arg(path));
}

} // namespace

Folders::Folders(store::Store &store, QString actor)
    : m_store(store)
    , m_actor(std::move(actor))
{}

QString Folders::homePath(const QString &folder) const
{
    return m_store.dataDir() + QStringLiteral("/groups/") + folder;
}

Result<bool> Folders::exists(const QString &path) const
{
    Result<QSqlQuery> query = execute(
        m_store.database(), QStringLiteral("SELECT 1 FROM groups WHERE folder = ?"), {path});
    if (!query)
        return query.error();
    return query->next();
}

Result<QStringList> Folders::subfolders(const QString &path) const
{
    // Exactly the paths starting with "<path>/": in byte order they sort
    // between "<path>/" and "<path>0" ('0' follows '/').
    Result<QSqlQuery> query =
        execute(m_store.database(),
                QStringLiteral("SELECT folder FROM groups WHERE folder > ? AND folder < ? "
                               "ORDER BY folder"),
                {path + QLatin1Char('/'), path + QLatin1Char('0')});
    if (!query)
        return query.error();
    QStringList found;
    while (query->next())
        found << query->value(0).toString();
    return found;
}

Result<void> Folders::checkHomeIsInside(const QString &folder) const
{
    // Every directory between the data directory and the home must be a
    // real directory: through a link, the home would be somewhere else.
    QString current = m_store.dataDir() + QStringLiteral("/groups");
    const QStringList segments = folder.split(QLatin1Char('/'));
    for (qsizetype index = 0; index < segments.size(); ++index) {
        std::error_code error;
        if (fs::is_symlink(fs::symlink_status(toPath(current), error)))
            return makeError(
                QStringLiteral("folder.unsafe-home"),
                QStringLiteral("the home of folder '%1' lies under the symbolic link %2; not "
                               "following it out of the data directory")
                    .arg(folder, current));
        current += QLatin1Char('/') + segments[index];
    }
    return {};
}

Result<Folder> Folders::add(const QString &path, const QString &name)
{
    if (const Result<void> valid = validateFolderPath(path); !valid)
        return valid.error();
    const QString home = homePath(path);
    bool homeCreated = false;
    audit::AuditLog log(m_store);
    Result<Folder> added = log.writeAudited([&]() -> Result<Folder> {
        const QSqlDatabase db = m_store.database();
        const Result<bool> taken = exists(path);
        if (!taken)
            return taken.error();
        if (*taken)
            return makeError(QStringLiteral("folder.exists"),
                             QStringLiteral("folder '%1' already exists").arg(path));
        const QString parent = parentFolder(path);
        if (!parent.isEmpty()) {
            const Result<bool> parentExists = exists(parent);
            if (!parentExists)
                return parentExists.error();
            if (!*parentExists)
                return makeError(
                    QStringLiteral("folder.no-parent"),
                    QStringLiteral(
                        "cannot add folder '%1': its parent '%2' does not exist; add it first")
                        .arg(path, parent));
        }
        if (const Result<void> inside = checkHomeIsInside(path); !inside)
            return inside.error();

        // A null QString would bind as SQL NULL.
        const Folder folder{path, name.isNull() ? QStringLiteral("") : name, nowTimestamp()};
        if (const Result<QSqlQuery> inserted = execute(
                db,
                QStringLiteral("INSERT INTO groups (folder, name, created_at) VALUES (?, ?, ?)"),
                {folder.path, folder.name, folder.createdAt});
            !inserted)
            return inserted.error();
        if (const Result<qint64> audited = log.record(m_actor, QStringLiteral("folder.add"), path,
                                                      {{QStringLiteral("name"), name}});
            !audited)
            return audited.error();

        // Made last, so only a failed commit can leave it behind (removed below).
        const bool homeExisted = QFileInfo::exists(home);
        if (!QDir().mkpath(home))
            return makeError(
                QStringLiteral("folder.home"),
                QStringLiteral("cannot create the home of folder '%1' at %2").arg(path, home));
        if (!homeExisted) {
            homeCreated = true;
            QFile::setPermissions(home, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        return folder;
    });
    if (!added && homeCreated)
        QDir().rmdir(home);
    return added;
}

Result<QList<Folder>> Folders::list() const
{
    Result<QSqlQuery> query =
        execute(m_store.database(),
                QStringLiteral("SELECT folder, name, created_at FROM groups ORDER BY folder"));
    if (!query)
        return query.error();
    QList<Folder> folders;
    while (query->next())
        folders.append(
            {query->value(0).toString(), query->value(1).toString(), query->value(2).toString()});
    return folders;
}

Result<QStringList> Folders::remove(const QString &path, bool recursive)
{
    if (const Result<void> valid = validateFolderPath(path); !valid)
        return valid.error();
    audit::AuditLog log(m_store);
    const Result<QStringList> removedFolders = log.writeAudited([&]() -> Result<QStringList> {
        const QSqlDatabase db = m_store.database();
        const Result<bool> found = exists(path);
        if (!found)
            return found.error();
        if (!*found)
            return notFound(path);
        const Result<QStringList> children = subfolders(path);
        if (!children)
            return children.error();
        if (!recursive && !children->isEmpty())
            return makeError(
                QStringLiteral("folder.has-children"),
                QStringLiteral(
                    "folder '%1' has subfolders (%2); pass --recursive to remove them too")
                    .arg(path, children->join(QStringLiteral(", "))));
        if (!recursive && homeHasContent(homePath(path)))
            return makeError(
                QStringLiteral("folder.home-not-empty"),
                QStringLiteral(
                    "the home of folder '%1' (%2) is not empty; pass --recursive to delete "
                    "it too")
                    .arg(path, homePath(path)));
        const QStringList removed = QStringList{path} + *children;
        for (const QString &folder : removed) {
            if (const Result<void> inside = checkHomeIsInside(folder); !inside)
                return inside.error();
        }

        // Rows keyed by the folder that a new folder of the same name must not
        // inherit. Topics and messages go by ON DELETE CASCADE, memberships by
        // the schema's trigger.
        const QStringList deletions = {
            QStringLiteral("DELETE FROM network_rules WHERE folder = ?"),
            QStringLiteral("DELETE FROM secrets WHERE scope_kind = 'folder' AND scope_id = ?"),
            QStringLiteral("DELETE FROM groups WHERE folder = ?"),
        };
        for (const QString &folder : removed) {
            for (const QString &deletion : deletions) {
                if (const Result<QSqlQuery> deleted = execute(db, deletion, {folder}); !deleted)
                    return deleted.error();
            }
        }
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("folder.rm"), path,
                           {{QStringLiteral("removed"), QJsonArray::fromStringList(removed)},
                            {QStringLiteral("recursive"), recursive}});
            !audited)
            return audited.error();
        return removed;
    });
    if (!removedFolders)
        return removedFolders.error();

    // remove_all never follows links: a link is removed, not its target.
    std::error_code error;
    fs::remove_all(toPath(homePath(path)), error);
    if (error)
        return makeError(
            QStringLiteral("folder.home-not-removed"),
            QStringLiteral("folder '%1' was removed, but its home %2 could not be deleted: %3")
                .arg(path, homePath(path), QString::fromStdString(error.message())));
    return removedFolders;
}

} // namespace arizuko::folders
