#pragma once

// Folders: the tenants, a tree of paths (`corp`, `corp/eng`), each with a
// home directory <data>/homes/<home id>/ that its turns see as home.

#include "core/result.h"
#include "store/data_subdirectory.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

namespace arizuko::store {
class Store;
}

namespace arizuko::folders {

// A folder's home: named by an id that stays with the folder through moves,
// so no home lies inside another (a guest writes its own home and could
// otherwise redirect a child's). docs/security-model.md, "Folder homes".
struct Home
{
    QString id;
    QString path; // <data>/homes/<id>
};

struct Folder
{
    QString path;
    QString name; // a display name, may be empty
    QString createdAt;
};

class Folders
{
public:
    // `actor` is who the audit log names for the changes made through this
    // object (one of core/actors.h).
    Folders(store::Store &store, QString actor);

    // The folder's home; folder.not-found when there is no such folder.
    Result<Home> home(const QString &folder) const;
    Result<QString> homePath(const QString &folder) const;

    // Opens the home (creating it when missing) one name at a time below
    // the data directory, never through a link and only as a directory of
    // the engine's user: the check made before a VM is given the home.
    static Result<store::OpenedDirectory> openHome(const QString &dataDir, const QString &homeId);

    // Refused when the path is invalid, exists, or its parent does not.
    Result<Folder> add(const QString &path, const QString &name = {});
    Result<QList<Folder>> list() const;
    Result<bool> exists(const QString &path) const;

    // Removes the folder, its topics and messages, its home, and whatever
    // names it that a new folder of the same name would otherwise inherit:
    // network rules, grants (as principal or scope) and memberships, route
    // targets, folder-scoped secrets. Refused while a turn of the subtree is
    // queued or running; a folder with subfolders or a non-empty home is
    // refused unless `recursive`, which takes the whole subtree. Never
    // follows a symlink: a link inside a home is unlinked, a home reached
    // through a linked <data>/homes is refused. Returns the removed folder
    // paths.
    Result<QStringList> remove(const QString &path, bool recursive);

    // The folder and every folder below it, in path order.
    Result<QStringList> subtree(const QString &path) const;

    // Moves the folder-scoped secrets of `from`'s subtree to `to`, inside
    // the caller's transaction: a secret is sealed to its folder, so moving
    // one means re-sealing it (secrets::SecretStore::moveFolder).
    using SecretMover = std::function<Result<void>(const QString &from, const QString &to)>;

    // Renames the folder `from` to `to` with its whole subtree, everywhere
    // a folder path is stored (topics, messages, turns, observations,
    // network rules, grants and memberships, route targets, folder
    // secrets), in one transaction, audited; the homes stay where they are,
    // named by their ids. Refused
    // while a turn of the subtree is queued or running, when `to` exists,
    // is `from` or inside it, has no parent, or is still named by grants,
    // rules, routes or secrets; on any failure nothing changes. Folder
    // secrets need `moveSecrets`. Returns the moved folders' old paths.
    Result<QStringList> move(const QString &from, const QString &to,
                             const SecretMover &moveSecrets = {});

private:
    // Refused with folder.no-parent (`what` says what could not be done)
    // unless `path` is top-level or its parent exists.
    Result<void> checkParentExists(const QString &path, const QString &what) const;
    Result<QStringList> subfolders(const QString &path) const;
    Result<void> checkHomesDirectory(const QString &folder) const;
    // Refused with folder.busy (`what` says what could not be done) while a
    // turn of `path` or below is queued or running.
    Result<void> checkNoLiveTurn(const QString &path, const QString &what) const;

    store::Store &m_store;
    QString m_actor;
};

} // namespace arizuko::folders
