#include "folders/folders.h"

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "store/home_layout.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_state.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
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

// Every stored column that holds a folder path, and which rows of it do.
struct PathColumn
{
    QString table;
    QString column;
    QString only;          // an extra condition, or empty
    bool fragment = false; // route targets may carry "#observe"
    // A row naming a path that is not a folder (left from a removed one)
    // would apply to a folder moved there: such a row refuses the move.
    bool guards = false;
};

const PathColumn turnFolders{
    QStringLiteral("turns"), QStringLiteral("group_folder"), {}, false, false};
const PathColumn folderSecrets{QStringLiteral("secrets"), QStringLiteral("scope_id"),
                               QStringLiteral("scope_kind = 'folder'"), false, true};

// Rewritten by move(); folder secrets are re-sealed by its SecretMover instead.
const QList<PathColumn> pathColumns = {
    {QStringLiteral("groups"), QStringLiteral("folder"), {}, false, false},
    {QStringLiteral("sessions"), QStringLiteral("group_folder"), {}, false, false},
    {QStringLiteral("messages"), QStringLiteral("group_folder"), {}, false, false},
    turnFolders,
    {QStringLiteral("observations"), QStringLiteral("observer_folder"), {}, false, false},
    {QStringLiteral("observations"), QStringLiteral("source_folder"), {}, false, false},
    {QStringLiteral("network_rules"), QStringLiteral("folder"), {}, false, true},
    {QStringLiteral("acl"), QStringLiteral("principal"), {}, false, true},
    {QStringLiteral("acl"), QStringLiteral("scope"), {}, false, true},
    {QStringLiteral("acl"), QStringLiteral("granted_by"), {}, false, false},
    {QStringLiteral("acl_membership"), QStringLiteral("child"), {}, false, true},
    {QStringLiteral("acl_membership"), QStringLiteral("parent"), {}, false, true},
    {QStringLiteral("routes"), QStringLiteral("target"), {}, true, true},
};

// The rows of `column` naming `path` or a path below it (a grant scope
// `path/**` included, `pathx` not), with its three bound values.
QString namesPath(const PathColumn &column)
{
    QString condition =
        QStringLiteral("(%1 = ? OR substr(%1, 1, length(?) + 1) = ? || '/'").arg(column.column);
    if (column.fragment)
        condition +=
            QStringLiteral(" OR substr(%1, 1, length(?) + 1) = ? || '#'").arg(column.column);
    condition += QLatin1Char(')');
    if (!column.only.isEmpty())
        condition += QStringLiteral(" AND ") + column.only;
    return condition;
}

QVariantList pathValues(const PathColumn &column, const QString &path)
{
    QVariantList values{path, path, path};
    if (column.fragment)
        values << path << path;
    return values;
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

Result<Home> Folders::home(const QString &folder) const
{
    Result<QSqlQuery> query =
        execute(m_store.database(), QStringLiteral("SELECT home_id FROM groups WHERE folder = ?"),
                {folder});
    if (!query)
        return query.error();
    if (!query->next())
        return notFound(folder);
    const QString id = query->value(0).toString();
    return Home{id, m_store.dataDir() + QLatin1Char('/') + store::homeRelativePath(id)};
}

Result<QString> Folders::homePath(const QString &folder) const
{
    const Result<Home> found = home(folder);
    if (!found)
        return found.error();
    return found->path;
}

Result<store::OpenedDirectory> Folders::openHome(const QString &dataDir, const QString &homeId)
{
    return store::openBelowDataDir(dataDir, store::homeRelativePath(homeId), true);
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

Result<void> Folders::checkParentExists(const QString &path, const QString &what) const
{
    const QString parent = parentFolder(path);
    if (parent.isEmpty())
        return {};
    const Result<bool> found = exists(parent);
    if (!found)
        return found.error();
    if (!*found)
        return makeError(QStringLiteral("folder.no-parent"),
                         QStringLiteral("%1: its parent '%2' does not exist; add it first")
                             .arg(what, parent));
    return {};
}

Result<void> Folders::checkNoLiveTurn(const QString &path, const QString &what) const
{
    Result<QSqlQuery> live = execute(
        m_store.database(),
        QStringLiteral("SELECT name, group_folder, state FROM turns WHERE %1 AND state NOT IN "
                       "%2 LIMIT 1")
            .arg(namesPath(turnFolders), turns::terminalStatesSql()),
        pathValues(turnFolders, path));
    if (!live)
        return live.error();
    if (live->next())
        return makeError(QStringLiteral("folder.busy"),
                         QStringLiteral("%1: turn %2 of '%3' is %4; cancel it or wait until it "
                                        "has ended")
                             .arg(what, live->value(0).toString(), live->value(1).toString(),
                                  live->value(2).toString()));
    return {};
}

Result<void> Folders::checkHomesDirectory(const QString &folder) const
{
    // <data>/homes must be the engine's own directory: through a link, the
    // homes would be somewhere else.
    const Result<store::OpenedDirectory> homes =
        store::openBelowDataDir(m_store.dataDir(), QStringLiteral("homes"), false);
    if (homes || homes.error().code == u"store.path-missing")
        return {};
    return makeError(QStringLiteral("folder.unsafe-home"),
                     QStringLiteral("the home of folder '%1' cannot be used: %2")
                         .arg(folder, homes.error().message));
}

Result<Folder> Folders::add(const QString &path, const QString &name)
{
    if (const Result<void> valid = validateFolderPath(path); !valid)
        return valid.error();
    QString createdHome;
    audit::AuditLog log(m_store);
    Result<Folder> added = log.writeAudited([&]() -> Result<Folder> {
        const QSqlDatabase db = m_store.database();
        const Result<bool> taken = exists(path);
        if (!taken)
            return taken.error();
        if (*taken)
            return makeError(QStringLiteral("folder.exists"),
                             QStringLiteral("folder '%1' already exists").arg(path));
        if (const Result<void> parent =
                checkParentExists(path, QStringLiteral("cannot add folder '%1'").arg(path));
            !parent)
            return parent.error();
        if (const Result<void> homes = checkHomesDirectory(path); !homes)
            return homes.error();

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

        // Made last, so only a failed commit can leave it behind (removed
        // below). The id is new (the groups_new_home_id trigger), so is the
        // directory.
        const Result<Home> made = home(path);
        if (!made)
            return made.error();
        if (const Result<store::OpenedDirectory> opened = openHome(m_store.dataDir(), made->id);
            !opened)
            return makeError(QStringLiteral("folder.home"),
                             QStringLiteral("cannot create the home of folder '%1': %2")
                                 .arg(path, opened.error().message));
        createdHome = made->path;
        return folder;
    });
    if (!added && !createdHome.isEmpty())
        QDir().rmdir(createdHome);
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
    QStringList removedHomes;
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
        const Result<QString> ownHome = homePath(path);
        if (!ownHome)
            return ownHome.error();
        if (!recursive && homeHasContent(*ownHome))
            return makeError(
                QStringLiteral("folder.home-not-empty"),
                QStringLiteral(
                    "the home of folder '%1' (%2) is not empty; pass --recursive to delete "
                    "it too")
                    .arg(path, *ownHome));
        // Its agent's home is deleted below, under a VM that has it mounted.
        if (const Result<void> idle =
                checkNoLiveTurn(path, QStringLiteral("cannot remove folder '%1' now").arg(path));
            !idle)
            return idle.error();
        const QStringList removed = QStringList{path} + *children;
        if (const Result<void> homes = checkHomesDirectory(path); !homes)
            return homes.error();
        for (const QString &folder : removed) {
            const Result<Home> home = this->home(folder);
            if (!home)
                return home.error();
            // The home's history (engine/history) goes with it.
            removedHomes << home->path
                         << m_store.dataDir() + QLatin1Char('/') +
                                store::historyRelativePath(home->id);
        }

        // What names the subtree and would apply to a new folder of the same
        // name (the rows a move refuses to land on): rules, grants, memberships,
        // routes, folder secrets. Topics and messages go by ON DELETE CASCADE.
        QJsonObject alsoRemoved;
        for (const PathColumn &column : pathColumns + QList<PathColumn>{folderSecrets}) {
            if (!column.guards)
                continue;
            Result<QSqlQuery> deleted = execute(
                db, QStringLiteral("DELETE FROM %1 WHERE %2").arg(column.table, namesPath(column)),
                pathValues(column, path));
            if (!deleted)
                return deleted.error();
            if (const int rows = deleted->numRowsAffected(); rows > 0)
                alsoRemoved.insert(column.table + QLatin1Char('.') + column.column, rows);
        }
        for (const QString &folder : removed) {
            if (const Result<QSqlQuery> deleted =
                    execute(db, QStringLiteral("DELETE FROM groups WHERE folder = ?"), {folder});
                !deleted)
                return deleted.error();
        }
        if (const Result<qint64> audited =
                log.record(m_actor, QStringLiteral("folder.rm"), path,
                           {{QStringLiteral("removed"), QJsonArray::fromStringList(removed)},
                            {QStringLiteral("recursive"), recursive},
                            {QStringLiteral("also_removed"), alsoRemoved}});
            !audited)
            return audited.error();
        return removed;
    });
    if (!removedFolders)
        return removedFolders.error();

    // remove_all never follows links: a link is removed, not its target.
    for (const QString &home : std::as_const(removedHomes)) {
        std::error_code error;
        fs::remove_all(toPath(home), error);
        if (error)
            return makeError(
                QStringLiteral("folder.home-not-removed"),
                QStringLiteral("folder '%1' was removed, but the home %2 could not be deleted: %3")
                    .arg(path, home, QString::fromStdString(error.message())));
    }
    return removedFolders;
}

Result<QStringList> Folders::subtree(const QString &path) const
{
    const Result<QStringList> children = subfolders(path);
    if (!children)
        return children.error();
    return QStringList{path} + *children;
}

Result<QStringList> Folders::move(const QString &from, const QString &to,
                                  const SecretMover &moveSecrets)
{
    for (const QString &path : {from, to}) {
        if (const Result<void> valid = validateFolderPath(path); !valid)
            return valid.error();
    }
    if (to == from || to.startsWith(from + QLatin1Char('/')))
        return makeError(
            QStringLiteral("folder.move-into-itself"),
            QStringLiteral("cannot move folder '%1' to '%2': that is the folder itself or "
                           "inside it")
                .arg(from, to));
    const QSqlDatabase db = m_store.database();
    Result<store::WriteTransaction> transaction = store::WriteTransaction::begin(db);
    if (!transaction)
        return transaction.error();

    const Result<bool> found = exists(from);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(from);
    const Result<bool> taken = exists(to);
    if (!taken)
        return taken.error();
    if (*taken)
        return makeError(
            QStringLiteral("folder.exists"),
            QStringLiteral("cannot move folder '%1' to '%2': '%2' already exists").arg(from, to));
    if (const Result<void> parent = checkParentExists(
            to, QStringLiteral("cannot move folder '%1' to '%2'").arg(from, to));
        !parent)
        return parent.error();
    // A grant, rule, route or secret left naming the new path would apply
    // to the moved folder: refuse rather than merge them.
    for (const PathColumn &column : pathColumns + QList<PathColumn>{folderSecrets}) {
        if (!column.guards)
            continue;
        Result<QSqlQuery> stale = execute(db,
                                          QStringLiteral("SELECT 1 FROM %1 WHERE %2 LIMIT 1")
                                              .arg(column.table, namesPath(column)),
                                          pathValues(column, to));
        if (!stale)
            return stale.error();
        if (stale->next())
            return makeError(
                QStringLiteral("folder.target-in-use"),
                QStringLiteral("cannot move folder '%1' to '%2': %3.%4 still names '%2'; "
                               "remove what refers to it first")
                    .arg(from, to, column.table, column.column));
    }
    if (const Result<void> idle =
            checkNoLiveTurn(from, QStringLiteral("cannot move folder '%1' now").arg(from));
        !idle)
        return idle.error();
    Result<QSqlQuery> sealed = execute(
        db, QStringLiteral("SELECT 1 FROM secrets WHERE %1 LIMIT 1").arg(namesPath(folderSecrets)),
        pathValues(folderSecrets, from));
    if (!sealed)
        return sealed.error();
    const bool hasSecrets = sealed->next();
    if (hasSecrets && !moveSecrets)
        return makeError(
            QStringLiteral("folder.secrets"),
            QStringLiteral("folder '%1' has folder secrets, which are sealed to it; moving "
                           "them needs the secrets' master key")
                .arg(from));
    const Result<QStringList> moved = subtree(from);
    if (!moved)
        return moved.error();
    // Sessions, messages and observations reference groups and sessions
    // without ON UPDATE CASCADE: the keys are checked at commit, once every
    // table carries the new path.
    if (const Result<QSqlQuery> deferred =
            execute(db, QStringLiteral("PRAGMA defer_foreign_keys = ON"));
        !deferred)
        return deferred.error();
    for (const PathColumn &column : pathColumns) {
        if (const Result<QSqlQuery> renamed =
                execute(db,
                        QStringLiteral("UPDATE %1 SET %2 = ? || substr(%2, length(?) + 1) WHERE %3")
                            .arg(column.table, column.column, namesPath(column)),
                        QVariantList{to, from} + pathValues(column, from));
            !renamed)
            return renamed.error();
    }
    if (hasSecrets) {
        if (const Result<void> resealed = moveSecrets(from, to); !resealed)
            return resealed.error();
    }
    if (const Result<qint64> audited = audit::AuditLog(m_store).record(
            m_actor, QStringLiteral("folder.move"), from,
            {{QStringLiteral("to"), to},
             {QStringLiteral("moved"), QJsonArray::fromStringList(*moved)}});
        !audited)
        return audited.error();

    // The homes stay: they are named by the folders' ids, not their paths.
    if (const Result<void> committed = transaction->commit(); !committed)
        return committed.error();
    return *moved;
}

} // namespace arizuko::folders
