// A data directory made before schema 6 kept a folder's home at
// <data>/groups/<folder>, a child's inside its parent's, where the parent's
// guest could replace it by a link to any host directory. Opening it moves
// every real home to <data>/homes/<id> and follows no link: a home that is
// one, or lies below one, stays put and its folder starts empty.

#include "store/migrations.h"
#include "store/store.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>
#include <sys/stat.h>
#include <unistd.h>

using namespace arizuko;
using namespace arizuko::store;

namespace {

const QByteArray canary = "CANARY-host-file-7c1e";

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList entries(const QString &directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System |
                                     QDir::Hidden);
}

// What a host directory holds, names and bytes and times, to show that
// nothing read through to it changed it.
QString fingerprint(const QString &directory)
{
    QString all;
    for (const QString &name : entries(directory)) {
        const QFileInfo info(QDir(directory).filePath(name));
        all += name + QLatin1Char(' ') + QString::number(info.lastModified().toMSecsSinceEpoch());
        all += info.isDir()
                   ? QLatin1Char('\n') + fingerprint(info.filePath())
                   : QLatin1Char(' ') + QString::fromLatin1(readFile(info.filePath()).toHex());
        all += QLatin1Char('\n');
    }
    return all;
}

} // namespace

class HomeLayoutTest final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_data;
    QString m_outside; // the user's own files, outside the data directory

    // The database at schema 5 with `folders`, as the release before made it.
    void makeSchema5(const QStringList &folders)
    {
        const QString name = QStringLiteral("schema5");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(m_data + QStringLiteral("/arizuko.db"));
            QVERIFY(db.open());
            const Result<QList<Migration>> all = embeddedMigrations();
            QVERIFY(all);
            QVERIFY(all->size() >= 6);
            const Result<int> migrated = migrate(db, all->mid(0, 5));
            QVERIFY2(migrated, migrated ? "" : qPrintable(migrated.error().message));
            for (const QString &folder : folders) {
                QSqlQuery insert(db);
                insert.prepare(
                    QStringLiteral("INSERT INTO groups (folder, created_at) VALUES (?, 'now')"));
                insert.addBindValue(folder);
                QVERIFY(insert.exec());
            }
        }
        QSqlDatabase::removeDatabase(name);
    }

    QString homeOf(const Store &store, const QString &folder)
    {
        QSqlQuery query(store.database());
        query.prepare(QStringLiteral("SELECT home_id FROM groups WHERE folder = ?"));
        query.addBindValue(folder);
        if (!query.exec() || !query.next())
            qFatal("no home id for %s", qPrintable(folder));
        return m_data + QStringLiteral("/homes/") + query.value(0).toString();
    }

    QList<QJsonObject> layoutEntries(const Store &store)
    {
        QSqlQuery query(store.database());
        query.exec(QStringLiteral(
            "SELECT subject, detail FROM audit_log WHERE kind = 'folder.home-layout' ORDER BY id"));
        QList<QJsonObject> found;
        while (query.next()) {
            QJsonObject detail = QJsonDocument::fromJson(query.value(1).toByteArray()).object();
            detail.insert(QStringLiteral("folder"), query.value(0).toString());
            found << detail;
        }
        return found;
    }

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        m_data = m_root.filePath(QStringLiteral("data-") +
                                 QUuid::createUuid().toString(QUuid::WithoutBraces));
        m_outside = m_root.filePath(QStringLiteral("outside-") +
                                    QUuid::createUuid().toString(QUuid::WithoutBraces));
        QVERIFY(QDir().mkpath(m_data));
        writeFile(m_outside + QStringLiteral("/canary"), canary);
        writeFile(m_outside + QStringLiteral("/child/canary"), canary);
    }

    void realHomesMoveAndEveryLinkStays()
    {
        makeSchema5({QStringLiteral("corp"), QStringLiteral("corp/eng"),
                     QStringLiteral("corp/eng/sre"), QStringLiteral("corp/ops"),
                     QStringLiteral("via"), QStringLiteral("via/child"), QStringLiteral("empty")});
        const QString groups = m_data + QStringLiteral("/groups");
        writeFile(groups + QStringLiteral("/corp/notes.md"), "corp's");
        writeFile(groups + QStringLiteral("/corp/eng/notes.md"), "eng's");
        writeFile(groups + QStringLiteral("/corp/eng/sre/notes.md"), "sre's");
        // What corp's guest did: corp/ops's home replaced by a link (the
        // last name), and via's home by one above via/child's.
        QVERIFY(QFile::link(m_outside, groups + QStringLiteral("/corp/ops")));
        QVERIFY(QFile::link(m_outside, groups + QStringLiteral("/via")));
        const QString before = fingerprint(m_outside);

        auto opened = Store::open(m_data);
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        const Store &store = **opened;

        QCOMPARE(entries(homeOf(store, QStringLiteral("corp"))),
                 (QStringList{QStringLiteral("notes.md"), QStringLiteral("ops")}));
        QVERIFY(
            QFileInfo(homeOf(store, QStringLiteral("corp")) + QStringLiteral("/ops")).isSymLink());
        QCOMPARE(entries(homeOf(store, QStringLiteral("corp/eng"))),
                 QStringList{QStringLiteral("notes.md")});
        QCOMPARE(
            readFile(homeOf(store, QStringLiteral("corp/eng/sre")) + QStringLiteral("/notes.md")),
            QByteArray("sre's"));
        for (const char *fresh : {"corp/ops", "via", "via/child"}) {
            const QFileInfo home(homeOf(store, QLatin1String(fresh)));
            QVERIFY2(home.isDir() && !home.isSymLink(), fresh);
            QCOMPARE(entries(home.filePath()), QStringList());
        }
        QCOMPARE(fingerprint(m_outside), before);
        // groups/ keeps only the link no folder owns.
        QCOMPARE(entries(groups), QStringList{QStringLiteral("via")});
        QVERIFY(QFileInfo(groups + QStringLiteral("/via")).isSymLink());

        QStringList notMoved;
        for (const QJsonObject &entry : layoutEntries(store)) {
            if (entry.value(QStringLiteral("moved")).toBool())
                continue;
            notMoved << entry.value(QStringLiteral("folder")).toString();
            QVERIFY2(entry.value(QStringLiteral("reason"))
                         .toString()
                         .contains(QStringLiteral("symbolic link")),
                     qPrintable(entry.value(QStringLiteral("reason")).toString()));
        }
        notMoved.sort();
        QCOMPARE(notMoved, (QStringList{QStringLiteral("corp/ops"), QStringLiteral("via"),
                                        QStringLiteral("via/child")}));
        QCOMPARE(layoutEntries(store).size(), 6); // all but "empty", which had no home
    }

    // corp's guest saw eng's home inside its own and hard-linked eng's
    // settings into corp's: after the move each home has a file of its
    // own with the content it had. A link within one home stays one file.
    void aHardLinkAcrossHomesBecomesTwoFiles()
    {
        makeSchema5({QStringLiteral("corp"), QStringLiteral("corp/eng")});
        const QString groups = m_data + QStringLiteral("/groups");
        const QString settings = groups + QStringLiteral("/corp/eng/.claude/settings.json");
        writeFile(settings, "{\"hooks\": {}}\n");
        QCOMPARE(::link(QFile::encodeName(settings).constData(),
                        QFile::encodeName(groups + QStringLiteral("/corp/x")).constData()),
                 0);
        writeFile(groups + QStringLiteral("/corp/a"), "corp's own pair\n");
        QCOMPARE(::link(QFile::encodeName(groups + QStringLiteral("/corp/a")).constData(),
                        QFile::encodeName(groups + QStringLiteral("/corp/b")).constData()),
                 0);

        auto opened = Store::open(m_data);
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        const QString eng = homeOf(**opened, QStringLiteral("corp/eng"));
        const QString corp = homeOf(**opened, QStringLiteral("corp"));
        struct stat engSettings = {};
        struct stat corpX = {};
        QCOMPARE(
            ::lstat(QFile::encodeName(eng + QStringLiteral("/.claude/settings.json")).constData(),
                    &engSettings),
            0);
        QCOMPARE(::lstat(QFile::encodeName(corp + QStringLiteral("/x")).constData(), &corpX), 0);
        QVERIFY(engSettings.st_ino != corpX.st_ino);
        QCOMPARE(engSettings.st_nlink, nlink_t(1));
        QCOMPARE(corpX.st_nlink, nlink_t(1));
        QCOMPARE(readFile(eng + QStringLiteral("/.claude/settings.json")),
                 QByteArray("{\"hooks\": {}}\n"));
        QCOMPARE(readFile(corp + QStringLiteral("/x")), QByteArray("{\"hooks\": {}}\n"));
        struct stat a = {};
        struct stat b = {};
        QCOMPARE(::lstat(QFile::encodeName(corp + QStringLiteral("/a")).constData(), &a), 0);
        QCOMPARE(::lstat(QFile::encodeName(corp + QStringLiteral("/b")).constData(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
        QCOMPARE(entries(corp),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("x")}));
    }

    void aSecondOpenMovesNothing()
    {
        makeSchema5({QStringLiteral("corp"), QStringLiteral("corp/eng")});
        writeFile(m_data + QStringLiteral("/groups/corp/eng/notes.md"), "eng's");
        QString engHome;
        {
            auto first = Store::open(m_data);
            QVERIFY(first);
            engHome = homeOf(**first, QStringLiteral("corp/eng"));
            QCOMPARE(layoutEntries(**first).size(), 2);
        }
        QVERIFY(!QFileInfo::exists(m_data + QStringLiteral("/groups")));
        auto again = Store::open(m_data);
        QVERIFY(again);
        QCOMPARE(layoutEntries(**again).size(), 2);
        QCOMPARE(homeOf(**again, QStringLiteral("corp/eng")), engHome);
        QCOMPARE(readFile(engHome + QStringLiteral("/notes.md")), QByteArray("eng's"));
    }
};

QTEST_GUILESS_MAIN(HomeLayoutTest)
#include "test_home_layout.moc"
