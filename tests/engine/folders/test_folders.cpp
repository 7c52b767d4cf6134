// Folders and topics: the validity rules, homes on disk, removal that is
// refused unless asked for and never follows a link, forks and renames,
// moving a folder's subtree everywhere its path is stored (or nowhere),
// and removing a topic.

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "folders/folders.h"
#include "folders/network_settings.h"
#include "folders/topics.h"
#include "secrets/secret_store.h"
#include "store/home_layout.h"
#include "store/store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace arizuko;
using namespace arizuko::store;
using namespace arizuko::folders;

namespace {

int count(const Store &store, const QString &sql)
{
    QSqlQuery query(store.database());
    if (!query.exec(sql) || !query.next())
        qFatal("query failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return query.value(0).toInt();
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

// Every row of every table a move touches, and the homes on disk: what
// "nothing changed" is compared against.
QString snapshot(const Store &store)
{
    QString all;
    for (const char *table :
         {"groups", "sessions", "messages", "turns", "turn_events", "observations", "network_rules",
          "acl", "acl_membership", "routes", "secrets"}) {
        QSqlQuery query(store.database());
        if (!query.exec(QStringLiteral("SELECT * FROM %1 ORDER BY 1, 2").arg(QLatin1String(table))))
            qFatal("%s: %s", table, qPrintable(query.lastError().text()));
        all += QLatin1String(table) + QLatin1Char('\n');
        while (query.next()) {
            for (int column = 0; column < query.record().count(); ++column)
                all += query.value(column).toString() + QLatin1Char('|');
            all += QLatin1Char('\n');
        }
    }
    QDir homes(store.dataDir() + QStringLiteral("/homes"));
    for (const QString &entry :
         homes.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System))
        all += QStringLiteral("home ") + entry + QLatin1Char('\n');
    return all;
}

template<typename T>
QString why(const Result<T> &result)
{
    return result ? QString() : result.error().code + QStringLiteral(": ") + result.error().message;
}

} // namespace

class FoldersTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Folders> m_folders;
    std::unique_ptr<Topics> m_topics;

    // The home of a folder that exists.
    QString homeOf(const QString &folder) const
    {
        const Result<QString> home = m_folders->homePath(folder);
        if (!home)
            qFatal("%s", qPrintable(home.error().message));
        return *home;
    }

    void exec(const QString &sql)
    {
        QSqlQuery query(m_store->database());
        if (!query.exec(sql))
            qFatal("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        const QString dataDir = m_dir.filePath(QUuid::createUuid().toString(QUuid::WithoutBraces));
        auto opened = Store::open(dataDir);
        QVERIFY2(opened, qPrintable(why(opened)));
        m_store = std::move(opened).value();
        m_folders = std::make_unique<Folders>(*m_store, QStringLiteral("user:test"));
        m_topics = std::make_unique<Topics>(*m_store, QStringLiteral("user:test"));
    }

    void cleanup()
    {
        m_topics.reset();
        m_folders.reset();
        m_store.reset();
    }

    // Unlisted hosts: deny unless the folder or an ancestor says ask; each
    // value from the nearest folder that sets it; changes audited.
    void networkSettingsAreInheritedDownTheTree()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")).ok());
        QVERIFY(m_folders->add(QStringLiteral("corp/eng")).ok());
        auto fresh = networkSettings(*m_store, QStringLiteral("corp/eng"));
        QVERIFY(fresh.ok());
        QCOMPARE(fresh->unlistedOrDefault(), UnlistedHosts::Deny);
        QCOMPARE(fresh->askTimeoutOrDefault(), std::chrono::seconds(60));
        NetworkSettings corp;
        corp.unlisted = UnlistedHosts::Ask;
        corp.askTimeout = std::chrono::seconds(30);
        QVERIFY(setNetworkSettings(*m_store, QStringLiteral("corp"), corp, QStringLiteral("user:a"))
                    .ok());
        auto inherited = networkSettings(*m_store, QStringLiteral("corp/eng"));
        QCOMPARE(inherited->unlistedOrDefault(), UnlistedHosts::Ask);
        QCOMPARE(inherited->askTimeoutOrDefault(), std::chrono::seconds(30));
        NetworkSettings eng;
        eng.unlisted = UnlistedHosts::Deny;
        QVERIFY(
            setNetworkSettings(*m_store, QStringLiteral("corp/eng"), eng, QStringLiteral("user:a"))
                .ok());
        auto own = networkSettings(*m_store, QStringLiteral("corp/eng"));
        QCOMPARE(own->unlistedOrDefault(), UnlistedHosts::Deny);
        QCOMPARE(own->askTimeoutOrDefault(), std::chrono::seconds(30));
        QVERIFY(!ownNetworkSettings(*m_store, QStringLiteral("corp/eng"))->askTimeout);
        NetworkSettings tooLong;
        tooLong.askTimeout = std::chrono::seconds(7200);
        const Result<void> refused =
            setNetworkSettings(*m_store, QStringLiteral("corp"), tooLong, QStringLiteral("user:a"));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, QStringLiteral("folder.invalid-setting"));
        audit::Query query;
        query.kind = QStringLiteral("folder");
        const auto entries = audit::AuditLog(*m_store).query(query);
        QVERIFY(entries.ok());
        int audited = 0;
        for (const audit::Entry &entry : *entries)
            audited += entry.kind == QLatin1String("folder.network-settings") ? 1 : 0;
        QCOMPARE(audited, 2);
        QVERIFY(!networkSettings(*m_store, QStringLiteral("nowhere")).ok() ||
                !ownNetworkSettings(*m_store, QStringLiteral("nowhere")).ok());
    }

    void folderPathRules_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("valid");
        QTest::newRow("top level") << QStringLiteral("corp") << true;
        QTest::newRow("nested") << QStringLiteral("corp/eng/sre") << true;
        QTest::newRow("punctuation") << QStringLiteral("a-b_c.d") << true;
        QTest::newRow("unicode") << QStringLiteral("über") << true;
        QTest::newRow("128 chars") << QString(128, QLatin1Char('a')) << true;
        QTest::newRow("share inside a word") << QStringLiteral("shared") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("leading slash") << QStringLiteral("/corp") << false;
        QTest::newRow("trailing slash") << QStringLiteral("corp/") << false;
        QTest::newRow("double slash") << QStringLiteral("corp//eng") << false;
        QTest::newRow("dot") << QStringLiteral("corp/.") << false;
        QTest::newRow("dot dot") << QStringLiteral("corp/../etc") << false;
        QTest::newRow("only dot dot") << QStringLiteral("..") << false;
        QTest::newRow("backslash") << QStringLiteral("corp\\eng") << false;
        QTest::newRow("nul") << QStringLiteral("corp") + QChar(0) + QStringLiteral("x") << false;
        QTest::newRow("newline") << QStringLiteral("corp\neng") << false;
        QTest::newRow("space") << QStringLiteral("my corp") << false;
        QTest::newRow("129 chars") << QString(129, QLatin1Char('a')) << false;
        QTest::newRow("reserved share") << QStringLiteral("share") << false;
        QTest::newRow("reserved share nested") << QStringLiteral("corp/share") << false;
        QTest::newRow("star") << QStringLiteral("*") << false;
        QTest::newRow("double star") << QStringLiteral("**") << false;
        QTest::newRow("glob child") << QStringLiteral("corp/*") << false;
        QTest::newRow("question mark") << QStringLiteral("corp?") << false;
        QTest::newRow("bracket") << QStringLiteral("corp[1]") << false;
        QTest::newRow("role principal") << QStringLiteral("role:member") << false;
        QTest::newRow("route suffix") << QStringLiteral("corp#observe") << false;
    }

    void folderPathRules()
    {
        QFETCH(QString, path);
        QFETCH(bool, valid);
        const Result<void> checked = validateFolderPath(path);
        QCOMPARE(checked.ok(), valid);
        if (!valid) {
            QCOMPARE(checked.error().code, QStringLiteral("folder.invalid"));
            QVERIFY(checked.error().message.startsWith(QStringLiteral("invalid folder")));
        }
        // The store applies the same rule.
        if (valid) {
            for (qsizetype slash = path.indexOf(QLatin1Char('/')); slash > 0;
                 slash = path.indexOf(QLatin1Char('/'), slash + 1))
                QVERIFY(m_folders->add(path.left(slash)));
        }
        const Result<Folder> added = m_folders->add(path);
        QVERIFY2(added.ok() == valid, qPrintable(why(added)));
    }

    void topicNameRules_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("main") << true;
        QTest::newRow("share is fine for a topic") << QStringLiteral("share") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("slash") << QStringLiteral("a/b") << false;
        QTest::newRow("space") << QStringLiteral("fix bug") << false;
        QTest::newRow("dot dot") << QStringLiteral("..") << false;
        QTest::newRow("too long") << QString(129, QLatin1Char('t')) << false;
    }

    void topicNameRules()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(validateTopicName(name).ok(), valid);
    }

    void addCreatesRowHomeAndMembership()
    {
        const Result<Folder> added =
            m_folders->add(QStringLiteral("corp"), QStringLiteral("Corp Inc"));
        QVERIFY2(added, qPrintable(why(added)));
        QCOMPARE(added->path, QStringLiteral("corp"));
        QVERIFY(added->createdAt.endsWith(QLatin1Char('Z')));
        const QString home = homeOf(QStringLiteral("corp"));
        QCOMPARE(QFileInfo(home).path(), m_store->dataDir() + QStringLiteral("/homes"));
        QVERIFY(QFileInfo(home).isDir());
        QCOMPARE(QFile::permissions(home) & 0x0077, QFileDevice::Permissions());
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM acl_membership WHERE child = 'corp' "
                                      "AND parent = 'role:member'")),
                 1);

        QVERIFY2(m_folders->add(QStringLiteral("corp/eng")), "child of an existing folder");
        QVERIFY(QFileInfo(homeOf(QStringLiteral("corp/eng"))).isDir());
        // Side by side: corp's guest, which writes corp's home, cannot reach
        // (or replace) corp/eng's.
        QCOMPARE(QFileInfo(homeOf(QStringLiteral("corp/eng"))).path(), QFileInfo(home).path());
        QVERIFY(homeOf(QStringLiteral("corp/eng")) != home);

        const Result<Folder> duplicate = m_folders->add(QStringLiteral("corp"));
        QVERIFY(!duplicate);
        QCOMPARE(duplicate.error().code, QStringLiteral("folder.exists"));
        const Result<Folder> orphan = m_folders->add(QStringLiteral("nowhere/child"));
        QVERIFY(!orphan);
        QCOMPARE(orphan.error().code, QStringLiteral("folder.no-parent"));
        QVERIFY(orphan.error().message.contains(QStringLiteral("'nowhere'")));
        QVERIFY(!m_folders->homePath(QStringLiteral("nowhere")));
        QCOMPARE(
            QDir(QFileInfo(home).path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(),
            2);

        const Result<QList<Folder>> listed = m_folders->list();
        QVERIFY(listed);
        QCOMPARE(listed->size(), 2);
        QCOMPARE(listed->at(0).name, QStringLiteral("Corp Inc"));
        QCOMPARE(listed->at(1).path, QStringLiteral("corp/eng"));
    }

    void removeIsRefusedWithChildrenOrAHomeWithContent()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        QVERIFY(m_folders->add(QStringLiteral("corp/eng")));
        const Result<QStringList> withChildren = m_folders->remove(QStringLiteral("corp"), false);
        QVERIFY(!withChildren);
        QCOMPARE(withChildren.error().code, QStringLiteral("folder.has-children"));
        QVERIFY(withChildren.error().message.contains(QStringLiteral("corp/eng")));

        writeFile(homeOf(QStringLiteral("corp/eng")) + QStringLiteral("/notes.md"), "work");
        const Result<QStringList> withContent =
            m_folders->remove(QStringLiteral("corp/eng"), false);
        QVERIFY(!withContent);
        QCOMPARE(withContent.error().code, QStringLiteral("folder.home-not-empty"));
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM groups")), 2);
        QVERIFY(QFile::exists(homeOf(QStringLiteral("corp/eng")) + QStringLiteral("/notes.md")));

        const Result<QStringList> missing = m_folders->remove(QStringLiteral("ghost"), true);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("folder.not-found"));
    }

    void removeOfAnEmptyLeafNeedsNoFlag()
    {
        QVERIFY(m_folders->add(QStringLiteral("solo")));
        const QString home = homeOf(QStringLiteral("solo"));
        const Result<QStringList> removed = m_folders->remove(QStringLiteral("solo"), false);
        QVERIFY2(removed, qPrintable(why(removed)));
        QCOMPARE(*removed, QStringList{QStringLiteral("solo")});
        QVERIFY(!QFileInfo::exists(home));
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM acl_membership WHERE child = 'solo'")),
                 0);
    }

    void removeTakesTheHomesHistory()
    {
        QVERIFY(m_folders->add(QStringLiteral("kept")));
        QVERIFY(m_folders->add(QStringLiteral("gone")));
        const QString history =
            m_store->dataDir() + QLatin1Char('/') +
            arizuko::store::historyRelativePath(m_folders->home(QStringLiteral("gone"))->id);
        const QString keptHistory =
            m_store->dataDir() + QLatin1Char('/') +
            arizuko::store::historyRelativePath(m_folders->home(QStringLiteral("kept"))->id);
        QVERIFY(QDir().mkpath(history + QStringLiteral("/objects")));
        QVERIFY(QDir().mkpath(keptHistory + QStringLiteral("/objects")));
        const Result<QStringList> removed = m_folders->remove(QStringLiteral("gone"), false);
        QVERIFY2(removed, qPrintable(why(removed)));
        QVERIFY(!QFileInfo::exists(history));
        QVERIFY(QFileInfo::exists(keptHistory));
    }

    void recursiveRemoveTakesTheSubtreeAndItsRows()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        QVERIFY(m_folders->add(QStringLiteral("corp/eng")));
        QVERIFY(m_folders->add(QStringLiteral("corporate")));
        QVERIFY(m_topics->add(QStringLiteral("corp/eng"), QStringLiteral("main")));
        exec(QStringLiteral(
            "INSERT INTO messages (group_folder, topic, role, content, created_at) VALUES "
            "('corp/eng', 'main', 'user', 'hi', 'now')"));
        exec(QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at) VALUES "
                            "('corp/eng', 'example.org', 'allow', 'now'), ('corporate', "
                            "'example.org', 'allow', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO secrets (scope_kind, scope_id, key, value, key_id, updated_at) VALUES "
            "('folder', 'corp', 'TOKEN', 'v2:x', 'k', 'now')"));
        writeFile(homeOf(QStringLiteral("corp/eng")) + QStringLiteral("/notes.md"), "work");
        const QString corpHome = homeOf(QStringLiteral("corp"));
        const QString engHome = homeOf(QStringLiteral("corp/eng"));

        const Result<QStringList> removed = m_folders->remove(QStringLiteral("corp"), true);
        QVERIFY2(removed, qPrintable(why(removed)));
        QCOMPARE(*removed, (QStringList{QStringLiteral("corp"), QStringLiteral("corp/eng")}));
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM groups")), 1);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM sessions")), 0);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM messages")), 0);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM network_rules")), 1);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM secrets")), 0);
        QCOMPARE(
            count(*m_store,
                  QStringLiteral("SELECT count(*) FROM acl_membership WHERE child LIKE 'corp%'")),
            1);
        QVERIFY(!QFileInfo::exists(corpHome));
        QVERIFY(!QFileInfo::exists(engHome));
        QVERIFY(QFileInfo(homeOf(QStringLiteral("corporate"))).isDir());

        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("folder.rm"), {}, 0, 10, {}});
        QVERIFY(logged);
        QCOMPARE(logged->size(), 1);
        QCOMPARE(logged->first().subject, QStringLiteral("corp"));
        QCOMPARE(logged->first().detail.value(QStringLiteral("removed")).toArray().size(), 2);
    }

    // A new folder given a removed one's name starts with nothing of it; a
    // folder whose turn runs (its home mounted in the VM) is not removed.
    void removeLeavesNothingANewFolderOfTheNameWouldInherit()
    {
        seedForMove();
        exec(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES ('t2', 'az-t2', 'corp/eng/sre', 'main', 'claude', 'p', 'running', 'now')"));
        const auto rows = [this] {
            return count(*m_store, QStringLiteral("SELECT (SELECT count(*) FROM acl) + "
                                                  "(SELECT count(*) FROM routes) + "
                                                  "(SELECT count(*) FROM network_rules)"));
        };
        const int before = rows();
        const Result<QStringList> busy = m_folders->remove(QStringLiteral("corp/eng"), true);
        QVERIFY(!busy);
        QCOMPARE(busy.error().code, QStringLiteral("folder.busy"));
        QVERIFY2(
            busy.error().message.contains(QStringLiteral("az-t2 of 'corp/eng/sre' is running")),
            qPrintable(busy.error().message));
        QCOMPARE(rows(), before);
        QVERIFY(QFileInfo::exists(homeOf(QStringLiteral("corp/eng/sre")) +
                                  QStringLiteral("/notes.md")));
        exec(QStringLiteral("UPDATE turns SET state = 'done' WHERE id = 't2'"));

        const Result<QStringList> removed = m_folders->remove(QStringLiteral("corp/eng"), true);
        QVERIFY2(removed, qPrintable(why(removed)));
        const auto naming = [this](const QString &table, const QString &column) {
            return count(*m_store,
                         QStringLiteral("SELECT count(*) FROM %1 WHERE %2 LIKE 'corp/eng%'")
                             .arg(table, column));
        };
        QCOMPARE(naming(QStringLiteral("acl"), QStringLiteral("principal")), 0);
        QCOMPARE(naming(QStringLiteral("acl"), QStringLiteral("scope")), 0);
        QCOMPARE(naming(QStringLiteral("routes"), QStringLiteral("target")), 0);
        QCOMPARE(naming(QStringLiteral("network_rules"), QStringLiteral("folder")), 0);
        // What names other folders stays: corp's grant on corp/*, corporate's rows.
        QCOMPARE(count(*m_store,
                       QStringLiteral(
                           "SELECT count(*) FROM acl WHERE principal IN ('corp', 'corporate')")),
                 2);
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM routes WHERE target = 'corporate'")),
                 1);
        QCOMPARE(
            count(*m_store,
                  QStringLiteral("SELECT count(*) FROM network_rules WHERE folder = 'corporate'")),
            1);
        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("folder.rm"), {}, 0, 10, {}});
        QVERIFY(logged && logged->size() == 1);
        const QJsonObject also =
            logged->first().detail.value(QStringLiteral("also_removed")).toObject();
        QCOMPARE(also.value(QStringLiteral("acl.principal")).toInt(), 1);
        QCOMPARE(also.value(QStringLiteral("routes.target")).toInt(), 2);
        QCOMPARE(also.value(QStringLiteral("network_rules.folder")).toInt(), 2);

        QVERIFY(m_folders->add(QStringLiteral("corp/eng")));
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM acl WHERE principal = 'corp/eng' OR "
                                      "scope LIKE 'corp/eng%'")),
                 0);
        QCOMPARE(naming(QStringLiteral("network_rules"), QStringLiteral("folder")), 0);
    }

    void removalNeverFollowsALinkOutOfTheDataDir()
    {
        QTemporaryDir outside;
        writeFile(outside.filePath(QStringLiteral("precious")), "keep me");

        // A link inside a home: the link goes, its target stays.
        QVERIFY(m_folders->add(QStringLiteral("inner")));
        const QString innerHome = homeOf(QStringLiteral("inner"));
        QVERIFY(QFile::link(outside.path(), innerHome + QStringLiteral("/link")));
        QVERIFY2(m_folders->remove(QStringLiteral("inner"), true), "recursive removal");
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("precious"))));
        QVERIFY(!QFileInfo::exists(innerHome));

        // A home that is itself a link counts as content, and only the link goes.
        QVERIFY(m_folders->add(QStringLiteral("linked")));
        const QString linkedHome = homeOf(QStringLiteral("linked"));
        QVERIFY(QDir().rmdir(linkedHome));
        QVERIFY(QFile::link(outside.path(), linkedHome));
        const Result<QStringList> refused = m_folders->remove(QStringLiteral("linked"), false);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("folder.home-not-empty"));
        QVERIFY2(m_folders->remove(QStringLiteral("linked"), true),
                 "recursive removal of a linked home");
        QVERIFY(!QFileInfo(linkedHome).isSymLink());
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("precious"))));

        // Homes reached through a linked homes/ are left alone, and none is
        // made there.
        QVERIFY(m_folders->add(QStringLiteral("parent")));
        const QString homes = QFileInfo(homeOf(QStringLiteral("parent"))).path();
        QVERIFY(QDir(homes).removeRecursively());
        QVERIFY(
            QDir(outside.path()).mkpath(QFileInfo(homeOf(QStringLiteral("parent"))).fileName()));
        QVERIFY(QFile::link(outside.path(), homes));
        const Result<QStringList> unsafe = m_folders->remove(QStringLiteral("parent"), true);
        QVERIFY(!unsafe);
        QCOMPARE(unsafe.error().code, QStringLiteral("folder.unsafe-home"));
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("precious"))));
        QCOMPARE(
            count(*m_store, QStringLiteral("SELECT count(*) FROM groups WHERE folder = 'parent'")),
            1);
        const Result<Folder> throughLink = m_folders->add(QStringLiteral("other"));
        QVERIFY(!throughLink);
        QCOMPARE(throughLink.error().code, QStringLiteral("folder.unsafe-home"));
        QCOMPARE(QDir(outside.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 2);
    }

    void topicsCarrySessionIds()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        const Result<Topic> main = m_topics->add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY2(main, qPrintable(why(main)));
        QVERIFY(!QUuid::fromString(main->sessionId).isNull());
        QVERIFY(main->parentTopic.isEmpty());
        const Result<Topic> other = m_topics->add(QStringLiteral("corp"), QStringLiteral("other"));
        QVERIFY(other);
        QVERIFY(other->sessionId != main->sessionId);

        const Result<Topic> duplicate =
            m_topics->add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(!duplicate);
        QCOMPARE(duplicate.error().code, QStringLiteral("topic.exists"));
        const Result<Topic> noFolder =
            m_topics->add(QStringLiteral("ghost"), QStringLiteral("main"));
        QVERIFY(!noFolder);
        QCOMPARE(noFolder.error().code, QStringLiteral("folder.not-found"));
        QCOMPARE(m_topics->list(QStringLiteral("corp"))->size(), 2);
        QCOMPARE(m_topics->list()->size(), 2);
    }

    void forkStartsANewSessionAndRecordsTheParent()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        const Result<Topic> main = m_topics->add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(main);
        const Result<Topic> named =
            m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("try"));
        QVERIFY2(named, qPrintable(why(named)));
        QCOMPARE(named->parentTopic, QStringLiteral("main"));
        QVERIFY(!named->forkedAt.isEmpty());
        QVERIFY(named->sessionId != main->sessionId);

        const Result<Topic> first = m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"));
        const Result<Topic> second = m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(first && second);
        QCOMPARE(first->name, QStringLiteral("main-fork"));
        QCOMPARE(second->name, QStringLiteral("main-fork-2"));

        const Result<Topic> missing =
            m_topics->fork(QStringLiteral("corp"), QStringLiteral("ghost"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("topic.not-found"));
        const Result<Topic> taken =
            m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("try"));
        QVERIFY(!taken);
        QCOMPARE(taken.error().code, QStringLiteral("topic.exists"));
    }

    void aTopicsSessionBelongsToOneAgentKind()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        const Result<Topic> main = m_topics->add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(main);
        QCOMPARE(main->agentKind, QStringLiteral("claude"));
        // The same kind keeps the session.
        const Result<bool> same = m_topics->useAgent(QStringLiteral("corp"), QStringLiteral("main"),
                                                     QStringLiteral("claude"));
        QVERIFY(same && !*same);
        QCOMPARE(m_topics->list(QStringLiteral("corp"))->first().sessionId, main->sessionId);
        // Another kind starts a new session, and says so.
        const Result<bool> switched = m_topics->useAgent(
            QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("codex"));
        QVERIFY2(switched, qPrintable(why(switched)));
        QVERIFY(*switched);
        const Topic codex = m_topics->list(QStringLiteral("corp"))->first();
        QCOMPARE(codex.agentKind, QStringLiteral("codex"));
        QVERIFY(codex.sessionId != main->sessionId);
        QVERIFY(!QUuid::fromString(codex.sessionId).isNull());
        // A fork carries a copy of the source's session: it keeps the kind.
        const Result<Topic> fork = m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(fork);
        QCOMPARE(fork->agentKind, QStringLiteral("codex"));
        // Which kinds exist is the agent profiles' to say; a name that is
        // no kind's spelling is refused here.
        const Result<bool> unknown = m_topics->useAgent(
            QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("gpt 5"));
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().code, QStringLiteral("topic.bad-agent"));
        const Result<bool> missing = m_topics->useAgent(
            QStringLiteral("corp"), QStringLiteral("ghost"), QStringLiteral("pi"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("topic.not-found"));
    }

    // corp/eng (with corp/eng/sre below) and everything that names it, and
    // corporate beside it, which must not move.
    void seedForMove()
    {
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "corporate", "x"})
            QVERIFY(m_folders->add(QLatin1String(folder)));
        QVERIFY(m_topics->add(QStringLiteral("corp/eng"), QStringLiteral("main")));
        QVERIFY(m_topics->add(QStringLiteral("corporate"), QStringLiteral("main")));
        exec(QStringLiteral(
            "INSERT INTO messages (group_folder, topic, role, content, created_at) VALUES "
            "('corp/eng', 'main', 'user', 'hi', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES ('t1', 'az-t1', 'corp/eng', 'main', 'claude', 'p', 'done', 'now')"));
        exec(QStringLiteral("INSERT INTO turn_events (turn, seq, kind, json, at) VALUES ('t1', 1, "
                            "'text', '{}', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO observations (observer_folder, observer_topic, source_folder, created_at) "
            "VALUES ('corp/eng', 'main', 'corp/eng/sre', 'now'), "
            "('corporate', 'main', 'corp/eng', 'now')"));
        exec(QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at) VALUES "
                            "('corp/eng', 'example.org', 'allow', 'now'), ('corp/eng/sre', "
                            "'a.example', 'deny', 'now'), "
                            "('corporate', 'example.org', 'allow', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO acl (principal, action, scope, effect, granted_by, granted_at) VALUES "
            "('corp/eng', 'mcp:send', 'corp/eng/**', 'allow', 'corp/eng', 'now'), "
            "('corp', 'mcp:send', 'corp/*', 'allow', 'user:cli', 'now'), "
            "('corporate', 'mcp:send', 'corporate', 'allow', 'user:cli', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO routes (seq, match, target) VALUES (1, 'platform=x', 'corp/eng#observe'), "
            "(2, 'platform=y', 'corp/eng/sre'), (3, '', 'corporate')"));
        writeFile(homeOf(QStringLiteral("corp/eng/sre")) + QStringLiteral("/notes.md"), "work");
    }

    void moveRenamesTheSubtreeEverywhere()
    {
        qputenv("ARIZUKO_KEY_STORE", "file");
        seedForMove();
        auto secrets = secrets::SecretStore::open(*m_store, QStringLiteral("user:test"));
        QVERIFY2(secrets, qPrintable(why(secrets)));
        QVERIFY((*secrets)->set({QStringLiteral("corp/eng/sre")}, QStringLiteral("TOKEN"),
                                "sre-token"));
        const QString sreHome = homeOf(QStringLiteral("corp/eng/sre"));
        QVERIFY(
            (*secrets)->set({QStringLiteral("corporate")}, QStringLiteral("TOKEN"), "other-token"));

        const Result<QStringList> moved =
            m_folders->move(QStringLiteral("corp/eng"), QStringLiteral("x/eng"),
                            [&secrets](const QString &from, const QString &to) {
                                return (*secrets)->moveFolder(from, to);
                            });
        QVERIFY2(moved, qPrintable(why(moved)));
        QCOMPARE(*moved, (QStringList{QStringLiteral("corp/eng"), QStringLiteral("corp/eng/sre")}));

        const auto column = [this](const QString &sql) {
            QSqlQuery query(m_store->database());
            if (!query.exec(sql))
                qFatal("%s", qPrintable(query.lastError().text()));
            QStringList values;
            while (query.next())
                values << query.value(0).toString();
            return values.join(QLatin1Char(','));
        };
        QCOMPARE(column(QStringLiteral("SELECT folder FROM groups ORDER BY folder")),
                 QStringLiteral("corp,corporate,x,x/eng,x/eng/sre"));
        QCOMPARE(column(QStringLiteral("SELECT group_folder FROM sessions ORDER BY 1")),
                 QStringLiteral("corporate,x/eng"));
        QCOMPARE(column(QStringLiteral("SELECT group_folder FROM messages")),
                 QStringLiteral("x/eng"));
        QCOMPARE(column(QStringLiteral("SELECT group_folder FROM turns")), QStringLiteral("x/eng"));
        QCOMPARE(column(QStringLiteral("SELECT count(*) FROM turn_events WHERE turn = 't1'")),
                 QStringLiteral("1"));
        QCOMPARE(
            column(QStringLiteral(
                "SELECT observer_folder || '>' || source_folder FROM observations ORDER BY 1")),
            QStringLiteral("corporate>x/eng,x/eng>x/eng/sre"));
        QCOMPARE(column(QStringLiteral("SELECT folder FROM network_rules ORDER BY 1")),
                 QStringLiteral("corporate,x/eng,x/eng/sre"));
        QCOMPARE(column(QStringLiteral(
                     "SELECT principal || ' ' || scope || ' ' || granted_by FROM acl "
                     "WHERE action = 'mcp:send' AND principal != 'role:member' ORDER BY 1")),
                 QStringLiteral(
                     "corp corp/* user:cli,corporate corporate user:cli,x/eng x/eng/** x/eng"));
        QCOMPARE(column(QStringLiteral(
                     "SELECT child FROM acl_membership WHERE child LIKE '%eng%' ORDER BY 1")),
                 QStringLiteral("x/eng,x/eng/sre"));
        QCOMPARE(column(QStringLiteral("SELECT target FROM routes ORDER BY seq")),
                 QStringLiteral("x/eng#observe,x/eng/sre,corporate"));
        // Secrets are re-sealed for their new folder and still open.
        QCOMPARE(*(*secrets)->get({QStringLiteral("x/eng/sre")}, QStringLiteral("TOKEN")),
                 QByteArray("sre-token"));
        QCOMPARE(*(*secrets)->get({QStringLiteral("corporate")}, QStringLiteral("TOKEN")),
                 QByteArray("other-token"));
        QVERIFY(!(*secrets)->get({QStringLiteral("corp/eng/sre")}, QStringLiteral("TOKEN")));
        // The homes stay where they were, with their files: a home is
        // named by its folder's id, not its path.
        QCOMPARE(homeOf(QStringLiteral("x/eng/sre")), sreHome);
        QVERIFY(QFile::exists(sreHome + QStringLiteral("/notes.md")));
        QVERIFY(!m_folders->homePath(QStringLiteral("corp/eng")));
        QCOMPARE(column(QStringLiteral("PRAGMA foreign_key_check")), QString());

        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("folder.move"), {}, 0, 10, {}});
        QVERIFY(logged);
        QCOMPARE(logged->size(), 1);
        QCOMPARE(logged->first().subject, QStringLiteral("corp/eng"));
        QCOMPARE(logged->first().detail.value(QStringLiteral("to")).toString(),
                 QStringLiteral("x/eng"));
    }

    void moveRefusalsChangeNothing_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("code");
        QTest::newRow("into itself") << QStringLiteral("corp/eng/sre/eng") << QString()
                                     << QStringLiteral("folder.move-into-itself");
        QTest::newRow("onto itself")
            << QStringLiteral("corp/eng") << QString() << QStringLiteral("folder.move-into-itself");
        QTest::newRow("target exists")
            << QStringLiteral("corporate") << QString() << QStringLiteral("folder.exists");
        QTest::newRow("no parent")
            << QStringLiteral("nowhere/eng") << QString() << QStringLiteral("folder.no-parent");
        QTest::newRow("invalid target")
            << QStringLiteral("x/../y") << QString() << QStringLiteral("folder.invalid");
        QTest::newRow("a turn is running")
            << QStringLiteral("x/eng")
            << QStringLiteral("INSERT INTO turns (id, name, group_folder, topic, agent, prompt, "
                              "state, queued_at) "
                              "VALUES ('t2', 'az-t2', 'corp/eng/sre', 'main', 'claude', 'p', "
                              "'running', 'now')")
            << QStringLiteral("folder.busy");
        QTest::newRow("a turn is queued")
            << QStringLiteral("x/eng")
            << QStringLiteral(
                   "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, "
                   "queued_at) "
                   "VALUES ('t2', 'az-t2', 'corp/eng', 'main', 'claude', 'p', 'queued', 'now')")
            << QStringLiteral("folder.busy");
        QTest::newRow("a stale grant names the target")
            << QStringLiteral("x/eng")
            << QStringLiteral(
                   "INSERT INTO acl (principal, action, scope, effect, granted_at) VALUES "
                   "('x/eng/sre', 'mcp:send', '**', 'allow', 'now')")
            << QStringLiteral("folder.target-in-use");
        QTest::newRow("a stale rule names the target")
            << QStringLiteral("x/eng")
            << QStringLiteral("INSERT INTO network_rules (folder, target, kind, created_at) VALUES "
                              "('x/eng', 'evil.example', 'allow', 'now')")
            << QStringLiteral("folder.target-in-use");
        QTest::newRow("secrets without their key")
            << QStringLiteral("x/eng")
            << QStringLiteral("INSERT INTO secrets (scope_kind, scope_id, key, value, key_id, "
                              "updated_at) VALUES "
                              "('folder', 'corp/eng/sre', 'TOKEN', 'v2:x', 'k', 'now')")
            << QStringLiteral("folder.secrets");
    }

    void moveRefusalsChangeNothing()
    {
        QFETCH(QString, to);
        QFETCH(QString, setup);
        QFETCH(QString, code);
        seedForMove();
        if (!setup.isEmpty())
            exec(setup);
        const QString before = snapshot(*m_store);
        const Result<QStringList> moved = m_folders->move(QStringLiteral("corp/eng"), to);
        QVERIFY(!moved);
        QVERIFY2(moved.error().code.startsWith(code), qPrintable(why(moved)));
        QCOMPARE(snapshot(*m_store), before);
    }

    void aMoveThatFailsHalfwayChangesNothing()
    {
        seedForMove();
        exec(QStringLiteral(
            "INSERT INTO secrets (scope_kind, scope_id, key, value, key_id, updated_at) VALUES "
            "('folder', 'corp/eng', 'TOKEN', 'v2:x', 'k', 'now')"));
        const QString before = snapshot(*m_store);
        // Fails after every table was rewritten, inside the transaction.
        Result<QStringList> moved = m_folders->move(
            QStringLiteral("corp/eng"), QStringLiteral("x/eng"),
            [](const QString &, const QString &) -> Result<void> {
                return makeError(QStringLiteral("test.fail"), QStringLiteral("refused on purpose"));
            });
        QVERIFY(!moved);
        QCOMPARE(moved.error().code, QStringLiteral("test.fail"));
        QCOMPARE(snapshot(*m_store), before);

        QVERIFY(
            QFile::exists(homeOf(QStringLiteral("corp/eng/sre")) + QStringLiteral("/notes.md")));
    }

    void removeTopicTakesItsMessagesAndTurns()
    {
        seedForMove();
        QVERIFY(m_topics->add(QStringLiteral("corp/eng"), QStringLiteral("other")));
        exec(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES ('t2', 'az-t2', 'corp/eng', 'other', 'claude', 'p', 'running', 'now')"));
        const Result<void> busy =
            m_topics->remove(QStringLiteral("corp/eng"), QStringLiteral("other"));
        QVERIFY(!busy);
        QCOMPARE(busy.error().code, QStringLiteral("topic.busy"));
        const Result<void> missing =
            m_topics->remove(QStringLiteral("corp/eng"), QStringLiteral("nope"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("topic.not-found"));

        const Result<void> removed =
            m_topics->remove(QStringLiteral("corp/eng"), QStringLiteral("main"));
        QVERIFY2(removed, qPrintable(why(removed)));
        QCOMPARE(
            count(*m_store,
                  QStringLiteral("SELECT count(*) FROM sessions WHERE group_folder = 'corp/eng'")),
            1);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM messages")), 0);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM turns WHERE topic = 'main'")),
                 0);
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM turn_events")), 0);
        QCOMPARE(count(*m_store,
                       QStringLiteral(
                           "SELECT count(*) FROM observations WHERE observer_folder = 'corp/eng'")),
                 0);
        // The same topic in another folder stays.
        QCOMPARE(
            count(*m_store,
                  QStringLiteral("SELECT count(*) FROM sessions WHERE group_folder = 'corporate'")),
            1);
        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("topic.rm"), {}, 0, 10, {}});
        QVERIFY(logged && logged->size() == 1);
        QCOMPARE(logged->first().detail.value(QStringLiteral("topic")).toString(),
                 QStringLiteral("main"));
    }

    void renameCarriesMessagesAndForks()
    {
        QVERIFY(m_folders->add(QStringLiteral("corp")));
        const Result<Topic> main = m_topics->add(QStringLiteral("corp"), QStringLiteral("main"));
        QVERIFY(main);
        QVERIFY(
            m_topics->fork(QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("try")));
        exec(QStringLiteral(
            "INSERT INTO messages (group_folder, topic, role, content, created_at) VALUES "
            "('corp', 'main', 'user', 'one', 'now'), ('corp', 'main', 'assistant', 'two', 'now')"));
        // Its past turns (its transcript) and what it observes go with it;
        // a live turn refuses the rename and changes nothing.
        exec(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES ('t1', 'az-t1', 'corp', 'main', 'claude', 'p', 'done', 'now'), "
            "('t2', 'az-t2', 'corp', 'main', 'claude', 'p', 'running', 'now')"));
        exec(QStringLiteral(
            "INSERT INTO observations (observer_folder, observer_topic, source_folder, created_at) "
            "VALUES ('corp', 'main', 'corp', 'now')"));
        const Result<Topic> busy = m_topics->rename(
            QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("release"));
        QVERIFY(!busy);
        QCOMPARE(busy.error().code, QStringLiteral("topic.busy"));
        QVERIFY2(busy.error().message.contains(QStringLiteral("az-t2 is running")),
                 qPrintable(busy.error().message));
        QCOMPARE(
            count(*m_store, QStringLiteral("SELECT count(*) FROM sessions WHERE topic = 'main'")),
            1);
        exec(QStringLiteral("UPDATE turns SET state = 'cancelled' WHERE id = 't2'"));

        const Result<Topic> renamed = m_topics->rename(
            QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("release"));
        QVERIFY2(renamed, qPrintable(why(renamed)));
        QCOMPARE(renamed->name, QStringLiteral("release"));
        QCOMPARE(renamed->sessionId, main->sessionId);
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM messages WHERE topic = 'release'")),
                 2);
        QCOMPARE(
            count(*m_store,
                  QStringLiteral("SELECT count(*) FROM sessions WHERE parent_topic = 'release'")),
            1);
        QCOMPARE(
            count(*m_store, QStringLiteral("SELECT count(*) FROM sessions WHERE topic = 'main'")),
            0);
        QCOMPARE(
            count(*m_store, QStringLiteral("SELECT count(*) FROM turns WHERE topic = 'release'")),
            2);
        QCOMPARE(count(*m_store,
                       QStringLiteral(
                           "SELECT count(*) FROM observations WHERE observer_topic = 'release'")),
                 1);

        const Result<Topic> clash = m_topics->rename(
            QStringLiteral("corp"), QStringLiteral("release"), QStringLiteral("try"));
        QVERIFY(!clash);
        QCOMPARE(clash.error().code, QStringLiteral("topic.exists"));
        const Result<Topic> bad = m_topics->rename(
            QStringLiteral("corp"), QStringLiteral("release"), QStringLiteral("a b"));
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, QStringLiteral("topic.invalid"));
        const Result<Topic> missing =
            m_topics->rename(QStringLiteral("corp"), QStringLiteral("ghost"), QStringLiteral("x"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("topic.not-found"));

        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("topic"), {}, 0, 10, {}});
        QVERIFY(logged);
        QStringList kinds;
        for (const audit::Entry &entry : *logged)
            kinds << entry.kind;
        QCOMPARE(kinds, (QStringList{QStringLiteral("topic.add"), QStringLiteral("topic.fork"),
                                     QStringLiteral("topic.rename")}));
    }
};

QTEST_GUILESS_MAIN(FoldersTest)
#include "test_folders.moc"
