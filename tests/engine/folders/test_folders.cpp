// Folders and topics: the validity rules, homes on disk, removal that is
// refused unless asked for and never follows a link, forks and renames.

#include "audit/audit_log.h"
#include "folders/folder_names.h"
#include "folders/folders.h"
#include "store/store.h"
#include "folders/topics.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSqlError>
#include <QSqlQuery>
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
        const QString home = m_folders->homePath(QStringLiteral("corp"));
        QCOMPARE(home, m_store->dataDir() + QStringLiteral("/groups/corp"));
        QVERIFY(QFileInfo(home).isDir());
        QCOMPARE(QFile::permissions(home) & 0x0077, QFileDevice::Permissions());
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM acl_membership WHERE child = 'corp' "
                                      "AND parent = 'role:member'")),
                 1);

        QVERIFY2(m_folders->add(QStringLiteral("corp/eng")), "child of an existing folder");
        QVERIFY(QFileInfo(m_folders->homePath(QStringLiteral("corp/eng"))).isDir());

        const Result<Folder> duplicate = m_folders->add(QStringLiteral("corp"));
        QVERIFY(!duplicate);
        QCOMPARE(duplicate.error().code, QStringLiteral("folder.exists"));
        const Result<Folder> orphan = m_folders->add(QStringLiteral("nowhere/child"));
        QVERIFY(!orphan);
        QCOMPARE(orphan.error().code, QStringLiteral("folder.no-parent"));
        QVERIFY(orphan.error().message.contains(QStringLiteral("'nowhere'")));
        QVERIFY(!QFileInfo::exists(m_folders->homePath(QStringLiteral("nowhere"))));

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

        writeFile(m_folders->homePath(QStringLiteral("corp/eng")) + QStringLiteral("/notes.md"),
                  "work");
        const Result<QStringList> withContent =
            m_folders->remove(QStringLiteral("corp/eng"), false);
        QVERIFY(!withContent);
        QCOMPARE(withContent.error().code, QStringLiteral("folder.home-not-empty"));
        QCOMPARE(count(*m_store, QStringLiteral("SELECT count(*) FROM groups")), 2);
        QVERIFY(QFile::exists(m_folders->homePath(QStringLiteral("corp/eng")) +
                              QStringLiteral("/notes.md")));

        const Result<QStringList> missing = m_folders->remove(QStringLiteral("ghost"), true);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("folder.not-found"));
    }

    void removeOfAnEmptyLeafNeedsNoFlag()
    {
        QVERIFY(m_folders->add(QStringLiteral("solo")));
        const Result<QStringList> removed = m_folders->remove(QStringLiteral("solo"), false);
        QVERIFY2(removed, qPrintable(why(removed)));
        QCOMPARE(*removed, QStringList{QStringLiteral("solo")});
        QVERIFY(!QFileInfo::exists(m_folders->homePath(QStringLiteral("solo"))));
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM acl_membership WHERE child = 'solo'")),
                 0);
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
        writeFile(m_folders->homePath(QStringLiteral("corp/eng")) + QStringLiteral("/notes.md"),
                  "work");

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
        QVERIFY(!QFileInfo::exists(m_folders->homePath(QStringLiteral("corp"))));
        QVERIFY(QFileInfo(m_folders->homePath(QStringLiteral("corporate"))).isDir());

        const Result<QList<audit::Entry>> logged =
            audit::AuditLog(*m_store).query({QStringLiteral("folder.rm"), {}, 0, 10, {}});
        QVERIFY(logged);
        QCOMPARE(logged->size(), 1);
        QCOMPARE(logged->first().subject, QStringLiteral("corp"));
        QCOMPARE(logged->first().detail.value(QStringLiteral("removed")).toArray().size(), 2);
    }

    void removalNeverFollowsALinkOutOfTheDataDir()
    {
        QTemporaryDir outside;
        writeFile(outside.filePath(QStringLiteral("precious")), "keep me");

        // A link inside a home: the link goes, its target stays.
        QVERIFY(m_folders->add(QStringLiteral("inner")));
        QVERIFY(QFile::link(outside.path(), m_folders->homePath(QStringLiteral("inner")) +
                                                QStringLiteral("/link")));
        QVERIFY2(m_folders->remove(QStringLiteral("inner"), true), "recursive removal");
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("precious"))));
        QVERIFY(!QFileInfo::exists(m_folders->homePath(QStringLiteral("inner"))));

        // A home that is itself a link counts as content, and only the link goes.
        QVERIFY(m_folders->add(QStringLiteral("linked")));
        const QString linkedHome = m_folders->homePath(QStringLiteral("linked"));
        QVERIFY(QDir().rmdir(linkedHome));
        QVERIFY(QFile::link(outside.path(), linkedHome));
        const Result<QStringList> refused = m_folders->remove(QStringLiteral("linked"), false);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("folder.home-not-empty"));
        QVERIFY2(m_folders->remove(QStringLiteral("linked"), true),
                 "recursive removal of a linked home");
        QVERIFY(!QFileInfo(linkedHome).isSymLink());
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("precious"))));

        // A home reached through a linked parent directory is left alone.
        QVERIFY(m_folders->add(QStringLiteral("parent")));
        QVERIFY(m_folders->add(QStringLiteral("parent/child")));
        const QString parentHome = m_folders->homePath(QStringLiteral("parent"));
        QVERIFY(QDir(parentHome).removeRecursively());
        QVERIFY(QDir(outside.path()).mkpath(QStringLiteral("child")));
        writeFile(outside.filePath(QStringLiteral("child/precious")), "keep me too");
        QVERIFY(QFile::link(outside.path(), parentHome));
        const Result<QStringList> unsafe = m_folders->remove(QStringLiteral("parent/child"), true);
        QVERIFY(!unsafe);
        QCOMPARE(unsafe.error().code, QStringLiteral("folder.unsafe-home"));
        QVERIFY(QFile::exists(outside.filePath(QStringLiteral("child/precious"))));
        QCOMPARE(count(*m_store,
                       QStringLiteral("SELECT count(*) FROM groups WHERE folder = 'parent/child'")),
                 1);
        const Result<Folder> throughLink = m_folders->add(QStringLiteral("parent/other"));
        QVERIFY(!throughLink);
        QCOMPARE(throughLink.error().code, QStringLiteral("folder.unsafe-home"));
        QVERIFY(!QFileInfo::exists(outside.filePath(QStringLiteral("other"))));
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
