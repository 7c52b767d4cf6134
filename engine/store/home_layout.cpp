#include "store/home_layout.h"

#include "core/actors.h"
#include "store/data_subdirectory.h"
#include "store/home_hard_links.h"
#include "store/query.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arizuko::store {
namespace {

const QString oldHomes = QStringLiteral("groups");
const QString actor = actors::store;

struct FolderHome
{
    QString folder;
    QString homeId;
};

// Written here rather than through audit::AuditLog, which sits on the store.
Result<void> audit(Store &store, const QString &folder, const QJsonObject &detail)
{
    const Result<QSqlQuery> inserted =
        execute(store.database(),
                QStringLiteral("INSERT INTO audit_log (at, actor, kind, subject, detail) "
                               "VALUES (?, ?, 'folder.home-layout', ?, ?)"),
                {nowTimestamp(), actor, folder,
                 QString::fromUtf8(QJsonDocument(detail).toJson(QJsonDocument::Compact))});
    if (!inserted)
        return inserted.error();
    return {};
}

// Moves <data>/groups/<folder> to <data>/homes/<id>, renaming within the
// directories it opened without following links, so nothing a guest put on
// the old path can redirect it. Returns why it did not.
Result<void> moveHome(const QString &dataDir, int homes, const FolderHome &home)
{
    const QString from = oldHomes + QLatin1Char('/') + home.folder;
    // Every name of the old path, the home itself included, must be a real
    // directory of ours.
    if (const Result<OpenedDirectory> old = openBelowDataDir(dataDir, from, false); !old)
        return old.error();
    const qsizetype slash = from.lastIndexOf(QLatin1Char('/'));
    const Result<OpenedDirectory> parent = openBelowDataDir(dataDir, from.left(slash), false);
    if (!parent)
        return parent.error();
    // renameat never follows the name it renames: were the home swapped for
    // a link since the check, the link moves, and the check before every
    // VM (openBelowDataDir) refuses it there.
    if (::renameat(parent->fd.get(), QFile::encodeName(from.mid(slash + 1)).constData(), homes,
                   QFile::encodeName(home.homeId).constData()) != 0)
        return makeError(QStringLiteral("store.path"),
                         QStringLiteral("cannot move %1/%2 to %1/%3: %4")
                             .arg(dataDir, from, homeRelativePath(home.homeId),
                                  QString::fromLocal8Bit(std::strerror(errno))));
    return {};
}

} // namespace

QString homeRelativePath(const QString &homeId)
{
    return QStringLiteral("homes/") + homeId;
}

QString historyRelativePath(const QString &homeId)
{
    return QStringLiteral("history/") + homeId + QStringLiteral(".git");
}

Result<QStringList> migrateHomeLayout(Store &store)
{
    const QString dataDir = store.dataDir();
    struct stat status{};
    if (::lstat(QFile::encodeName(dataDir + QLatin1Char('/') + oldHomes).constData(), &status) != 0)
        return QStringList();
    Result<QSqlQuery> rows =
        execute(store.database(), QStringLiteral("SELECT folder, home_id FROM groups"));
    if (!rows)
        return rows.error();
    QList<FolderHome> homes;
    while (rows->next())
        homes.append({rows->value(0).toString(), rows->value(1).toString()});
    std::sort(homes.begin(), homes.end(), [](const FolderHome &a, const FolderHome &b) {
        return a.folder.count(QLatin1Char('/')) > b.folder.count(QLatin1Char('/'));
    });
    const Result<OpenedDirectory> target = openBelowDataDir(dataDir, QStringLiteral("homes"), true);
    if (!target)
        return target.error();

    QStringList notMoved;
    bool moving = false;
    for (const FolderHome &home : std::as_const(homes)) {
        const QString from = dataDir + QLatin1Char('/') + oldHomes + QLatin1Char('/') + home.folder;
        const QString to = dataDir + QLatin1Char('/') + homeRelativePath(home.homeId);
        QJsonObject detail{{QStringLiteral("from"), from}, {QStringLiteral("to"), to}};
        const Result<void> moved = moveHome(dataDir, target->fd.get(), home);
        if (!moved && moved.error().code == u"store.path-missing")
            continue; // moved by an earlier open, or it never had a home
        moving = true;
        detail.insert(QStringLiteral("moved"), moved.ok());
        if (moved) {
            // Apart now, the homes must not share a file either.
            const Result<OpenedDirectory> opened =
                openBelowDataDir(dataDir, homeRelativePath(home.homeId), false);
            const HardLinksBroken links =
                opened ? breakOutsideHardLinks(opened->fd.get(), to)
                       : HardLinksBroken{0,
                                         {QStringLiteral("%1: cannot look for hard links: %2")
                                              .arg(to, opened.error().message)}};
            if (links.copied > 0)
                detail.insert(QStringLiteral("hard_links_copied"), links.copied);
            if (!links.notCopied.isEmpty())
                detail.insert(QStringLiteral("hard_links_not_copied"),
                              QJsonArray::fromStringList(links.notCopied));
            notMoved << links.notCopied;
        }
        if (!moved) {
            detail.insert(QStringLiteral("reason"), moved.error().message);
            notMoved << QStringLiteral("the home of folder '%1' was not moved from %2 (%3); the "
                                       "folder starts with a new empty home at %4")
                            .arg(home.folder, from, moved.error().message, to);
            if (const Result<OpenedDirectory> fresh =
                    openBelowDataDir(dataDir, homeRelativePath(home.homeId), true);
                !fresh)
                return fresh.error();
        }
        if (const Result<void> audited = audit(store, home.folder, detail); !audited)
            return audited.error();
    }
    // Empty once every home moved; what is left (a link, a file no folder
    // owns) stays for the user to look at.
    if (moving &&
        ::unlinkat(AT_FDCWD, QFile::encodeName(dataDir + QLatin1Char('/') + oldHomes).constData(),
                   AT_REMOVEDIR) != 0)
        notMoved << QStringLiteral("%1/%2 still holds entries that belong to no folder; they were "
                                   "left there")
                        .arg(dataDir, oldHomes);
    return notMoved;
}

} // namespace arizuko::store
