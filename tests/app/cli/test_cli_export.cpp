// arizukoctl export and import end to end: the real binary on real SQLite
// files. Every hostile manifest is refused naming what is wrong, the
// database file is byte-for-byte what it was, and no directory (no home
// under homes/ above all) was created in the data directory.

#include "cli_runner.h"
#include "data_dir_tree.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// The store file and its WAL, as bytes on disk.
QByteArray storeBytes(const QString &dataDir)
{
    const QString db = dataDir + QStringLiteral("/arizuko.db");
    return QCryptographicHash::hash(readAll(db) + "|" + readAll(db + QStringLiteral("-wal")),
                                    QCryptographicHash::Sha256);
}

// A store made by arizukoctl and filled from the engine tests' fixture.
void fillFromFixture(const Cli &cli, const QString &dataDir)
{
    QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("list")}).exitCode, 0);
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fixture"));
        db.setDatabaseName(dataDir + QStringLiteral("/arizuko.db"));
        QVERIFY(db.open());
        const QString sql =
            QString::fromUtf8(readAll(QStringLiteral(EXPORT_FIXTURES "/desktop_store.sql")));
        for (const QString &statement : sql.split(QStringLiteral(";\n"), Qt::SkipEmptyParts)) {
            if (statement.trimmed().isEmpty())
                continue;
            QSqlQuery query(db);
            QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("fixture"));
}

} // namespace

class TestCliExport : public QObject
{
    Q_OBJECT

private slots:
    void exportWritesTheManifestAndReportsOnStderr()
    {
        QTemporaryDir dir;
        Cli cli(dir.path());
        fillFromFixture(cli, dir.path());
        const QString out = dir.filePath(QStringLiteral("export.yaml"));
        const CliRun run = cli.run({QStringLiteral("export"), QStringLiteral("-o"), out});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(readAll(out).startsWith("checksum: sha256:"));
        QVERIFY(run.err.contains("left out: network_rules acme/support|tracker.example| (deny)"));
        QVERIFY(run.out.isEmpty());
        const CliRun toStdout = cli.run({QStringLiteral("export")});
        QCOMPARE(toStdout.out, readAll(out));
    }

    void exportChoicesAreChecked()
    {
        QTemporaryDir dir;
        Cli cli(dir.path());
        fillFromFixture(cli, dir.path());
        const CliRun refused =
            cli.run({QStringLiteral("export"), QStringLiteral("--unrepresentable"),
                     QStringLiteral("refuse")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(refused.err.contains("tracker.example"));
        QVERIFY(refused.out.isEmpty());
        QCOMPARE(
            cli.run({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("xml")})
                .exitCode,
            2);
        QCOMPARE(cli.run({QStringLiteral("export"), QStringLiteral("--include"),
                          QStringLiteral("web_routes")})
                     .exitCode,
                 1);
        const CliRun warned = cli.run(
            {QStringLiteral("export"), QStringLiteral("--include"), QStringLiteral("acl,routes")});
        QCOMPARE(warned.exitCode, 0);
        QVERIFY(warned.err.contains("replaces EVERY acl row on the server"));
        const CliRun script =
            cli.run({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("script"),
                     QStringLiteral("--folders"), QStringLiteral("beta")});
        QCOMPARE(script.exitCode, 0);
        QVERIFY(script.out.startsWith("#!/bin/sh\n"));
        QVERIFY(script.out.contains("arizuko network \"$INST\" 'allow' 'beta' 'pypi.org'"));
        QVERIFY(!script.out.contains("'acme'"));
    }

    void roundTripThroughTheCli()
    {
        QTemporaryDir source, target;
        Cli from(source.path()), to(target.path());
        fillFromFixture(from, source.path());
        const QStringList full = {QStringLiteral("export"), QStringLiteral("--include"),
                                  QStringLiteral("acl,acl_membership,routes")};
        const CliRun first = from.run(full);
        QCOMPARE(first.exitCode, 0);
        const QString file = source.filePath(QStringLiteral("m.yaml"));
        writeAll(file, first.out);

        QCOMPARE(to.run({QStringLiteral("folder"), QStringLiteral("list")}).exitCode, 0);
        const QByteArray untouched = storeBytes(target.path());
        const CliRun plan = to.run({QStringLiteral("import"), file, QStringLiteral("--plan")});
        QCOMPARE(plan.exitCode, 0);
        QVERIFY(plan.out.contains("  + acme/support/tier2|"));
        QVERIFY(plan.out.contains("checksum matches the content"));
        QCOMPARE(storeBytes(target.path()), untouched);
        // Not a terminal and no --yes: the plan is shown, nothing is written.
        const CliRun unconfirmed = to.run({QStringLiteral("import"), file});
        QCOMPARE(unconfirmed.exitCode, 1);
        QVERIFY(unconfirmed.err.contains("not applied"));
        QCOMPARE(storeBytes(target.path()), untouched);

        QCOMPARE(to.run({QStringLiteral("import"), file, QStringLiteral("--yes")}).exitCode, 0);
        QCOMPARE(to.run(full).out, first.out);
        const CliRun again = to.run({QStringLiteral("import"), file, QStringLiteral("--plan")});
        QVERIFY(again.out.contains("no changes"));
    }

    void hostileManifestsAreRefusedAndTheStoreIsUnchanged_data()
    {
        QTest::addColumn<QByteArray>("manifest");
        QTest::addColumn<QByteArray>("named");
        QTest::newRow("unknown key") << QByteArray("groups: []\nbogus: []\n")
                                     << QByteArray("document 1 (line 2): unknown key 'bogus'");
        QTest::newRow("unknown field")
            << QByteArray("groups:\n  - folder: x\n    colour: red\n")
            << QByteArray("document 1, groups row 1 (line 2), field colour: unknown field");
        QTest::newRow("wrong type")
            << QByteArray("routes:\n  - seq: \"5\"\n    match: \"\"\n    target: x\n")
            << QByteArray("routes row 1 (line 2), field seq: expected an integer");
        QTest::newRow("not a list")
            << QByteArray("routes:\n") << QByteArray("routes (line 1): expected a list of rows");
        QTest::newRow("mapping for text")
            << QByteArray("groups:\n  - folder: {a: b}\n")
            << QByteArray("field folder: expected text, found a mapping");
        QTest::newRow("duplicate key")
            << QByteArray("groups: []\ngroups: []\n") << QByteArray("key 'groups' appears twice");
        QTest::newRow("duplicate field") << QByteArray("groups:\n  - folder: a\n    folder: b\n")
                                         << QByteArray("field folder: the field appears twice");
        QTest::newRow("dot-dot folder")
            << QByteArray("groups:\n  - folder: a/../b\n    product: assistant\n")
            << QByteArray("groups row 1 (line 2), field folder:");
        QTest::newRow("dot-dot target")
            << QByteArray("routes:\n  - seq: 1\n    match: \"\"\n    target: ../etc\n")
            << QByteArray("routes row 1 (line 2), field target:");
        QTest::newRow("url host")
            << QByteArray("network_rules:\n  - folder: \"\"\n    target: https://evil.example/x\n")
            << QByteArray("network_rules row 1 (line 2), field target:");
        QTest::newRow("missing group")
            << QByteArray("network_rules:\n  - folder: ghost\n    target: example.org\n")
            << QByteArray("field folder: folder 'ghost' has no groups row");
        QTest::newRow("anchor") << QByteArray("groups:\n  - &a\n    folder: x\n")
                                << QByteArray("anchors (&name) are not accepted");
        QTest::newRow("alias") << QByteArray("groups:\n  - folder: x\nroutes: *a\n")
                               << QByteArray("line 3: not valid YAML");
        QTest::newRow("billion laughs")
            << QByteArray("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
                          "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                          "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                          "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n")
            << QByteArray("anchors (&name) are not accepted");
        QTest::newRow("tag") << QByteArray("groups: !!seq []\n")
                             << QByteArray("tags (tag:yaml.org,2002:seq) are not accepted");
        QTest::newRow("deep nesting")
            << QByteArray("groups:\n  - folder: [[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]\n")
            << QByteArray("nesting deeper than 6 levels");
        QTest::newRow("oversized")
            << QByteArray(5 * 1024 * 1024, '#') << QByteArray("larger than 4194304 bytes");
        QTest::newRow("checksum")
            << QByteArray("checksum: sha256:0000000000000000000000000000000000000000000000000000"
                          "000000000000\ngroups: []\n")
            << QByteArray("document 1: checksum sha256:0000");
        QTest::newRow("mixed subsystems")
            << QByteArray("groups: []\ninvites: []\n") << QByteArray("one subsystem per document");
        QTest::newRow("duplicate row")
            << QByteArray("routes:\n  - seq: 1\n    match: \"\"\n    target: beta\n"
                          "  - seq: 1\n    match: \"\"\n    target: beta\n")
            << QByteArray("routes row 2 (line 5): the same row (1||beta|) appears twice");
        QTest::newRow("bad params")
            << QByteArray("acl:\n  - principal: folder:beta\n    action: admin\n    scope: beta\n"
                          "    effect: allow\n    params: nonsense\n    predicate: \"\"\n")
            << QByteArray("acl row 1 (line 2), field params: 'nonsense' is not name=glob");
        QTest::newRow("bad effect")
            << QByteArray("acl:\n  - principal: folder:beta\n    action: admin\n    scope: beta\n"
                          "    effect: maybe\n    params: \"\"\n    predicate: \"\"\n")
            << QByteArray("field effect: 'maybe' is neither allow nor deny");
    }

    void hostileManifestsAreRefusedAndTheStoreIsUnchanged()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QByteArray, named);
        QTemporaryDir dir;
        Cli cli(dir.path());
        fillFromFixture(cli, dir.path());
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("list")}).exitCode,
                 0); // settles the WAL
        const QByteArray before = storeBytes(dir.path());
        const QStringList directoriesBefore = arizuko::test::directoriesUnder(dir.path());
        const QString file = dir.filePath(QStringLiteral("hostile.yaml"));
        writeAll(file, manifest);
        const CliRun run = cli.run({QStringLiteral("import"), file, QStringLiteral("--yes")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(named), run.err.constData());
        QCOMPARE(storeBytes(dir.path()), before);
        QCOMPARE(arizuko::test::directoriesUnder(dir.path()), directoriesBefore);
    }

    void serverShapedExportImportsWhatWeModel()
    {
        QTemporaryDir dir;
        Cli cli(dir.path());
        const CliRun run = cli.run(
            {QStringLiteral("import"), QStringLiteral(SERVER_EXPORT), QStringLiteral("--yes")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("ignored: proxyd_routes: 1 row(s) not imported"));
        QVERIFY(run.out.contains("ignored: onboarding_gates: 1 row(s) not imported"));
        QVERIFY(run.out.contains("ignored: pending_actions: 0 row(s) not imported"));
        const CliRun folders = cli.run({QStringLiteral("folder"), QStringLiteral("list")});
        QVERIFY(folders.out.contains("atlas/ops"));
        const CliRun listed =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("list")});
        bool homeMade = false;
        for (const QJsonValue &folder : listed.json().array()) {
            if (folder.toObject().value(QStringLiteral("folder")).toString() == u"atlas/ops")
                homeMade =
                    QFileInfo(folder.toObject().value(QStringLiteral("home")).toString()).isDir();
        }
        QVERIFY2(homeMade, listed.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "test_cli_export.moc"
