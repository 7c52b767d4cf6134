// Export -> import -> export loses nothing a manifest can carry; the plan is
// scoped like arizuko's apply; a failing apply leaves the store as it was.

#include "export/canonical_emitter.h"
#include "export/import_plan.h"
#include "export/manifest_reader.h"
#include "export/projection.h"
#include "export_fixture.h"

#include <QCryptographicHash>
#include <QTest>

using namespace arizuko;
using namespace Qt::StringLiterals;

namespace {

// Everything a manifest carries both ways: secret names are export-only,
// since a value never travels.
QByteArray fullManifest(store::Store &store)
{
    manifest::ExportOptions options;
    options.include = {u"acl"_s, u"acl_membership"_s, u"routes"_s};
    const Result<manifest::Projection> projection = manifest::project(store, options);
    if (!projection)
        qFatal("export failed: %s", qPrintable(projection.error().message));
    return manifest::manifestText(*projection);
}

QStringList planLines(const manifest::ImportPlan &plan)
{
    QStringList lines;
    for (const manifest::PlannedRow &row : plan.rows) {
        const QString sign = row.kind == manifest::PlannedRow::Kind::Add      ? u"+"_s
                             : row.kind == manifest::PlannedRow::Kind::Change ? u"~"_s
                                                                              : u"-"_s;
        lines.append(u"%1 %2 %3"_s.arg(sign, row.resource, row.key));
    }
    return lines;
}

QByteArray fileHash(const QString &path)
{
    return QCryptographicHash::hash(readFile(path), QCryptographicHash::Sha256);
}

} // namespace

class TestRoundTrip : public QObject
{
    Q_OBJECT

private slots:
    void storeManifestStoreManifestIsIdentical()
    {
        ExportFixture source;
        const QByteArray first = fullManifest(source.store());
        ExportFixture target(false);
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(target.store(), first, u"test"_s);
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        QCOMPARE(QString::fromUtf8(fullManifest(target.store())), QString::fromUtf8(first));
        // And the second import plans nothing.
        const Result<manifest::ImportPlan> again = manifest::planImport(target.store(), first);
        QVERIFY(again);
        QVERIFY2(again->changesNothing(), qPrintable(planLines(*again).join(u'\n')));
    }

    void importCreatesFolderHomes()
    {
        ExportFixture source;
        ExportFixture target(false);
        QVERIFY(manifest::applyImport(target.store(), fullManifest(source.store()), u"test"_s));
        QVERIFY(QFileInfo(target.dataDir() + u"/groups/acme/support/tier2"_s).isDir());
    }

    void folderScopedResourcesTouchOnlyTheirFolders()
    {
        ExportFixture fixture;
        const QByteArray manifest = "network_rules:\n"
                                    "  - folder: acme\n"
                                    "    target: gitlab.com\n";
        const Result<manifest::ImportPlan> plan = manifest::planImport(fixture.store(), manifest);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().message));
        QCOMPARE(planLines(*plan), (QStringList{u"+ network_rules acme|gitlab.com|"_s,
                                                u"- network_rules acme|github.com|"_s}));
    }

    void wholesaleResourcesReplaceEverything()
    {
        ExportFixture fixture;
        const Result<manifest::ImportPlan> plan = manifest::planImport(
            fixture.store(), "routes:\n  - seq: 1\n    match: \"\"\n    target: beta\n");
        QVERIFY(plan);
        const QStringList lines = planLines(*plan);
        QVERIFY(lines.contains(u"+ routes 1||beta|"_s));
        QVERIFY(lines.contains(u"- routes 10|platform=slack|acme/support#observe|"_s));
        QVERIFY(lines.contains(u"- routes -1|verb=mention|beta|"_s));
        // The desktop-only route cannot be written in a manifest, so it stays.
        QVERIFY(!lines.join(u'\n').contains(u"chat=corp"_s));
        QVERIFY(plan->notes.join(u'\n').contains(u"kept as they are"_s));
    }

    void emptyListDeletesEveryRowOfThatResource()
    {
        ExportFixture fixture;
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), "acl_membership: []\n", u"test"_s);
        QVERIFY(applied);
        QSqlQuery query(fixture.store().database());
        QVERIFY(query.exec(u"SELECT count(*) FROM acl_membership"_s) && query.next());
        QCOMPARE(query.value(0).toInt(), 0);
        QVERIFY(query.exec(u"SELECT count(*) FROM network_rules"_s) && query.next());
        QCOMPARE(query.value(0).toInt(), 6); // absent resources are untouched
    }

    void changedRowsArePlannedAsChanges()
    {
        ExportFixture fixture;
        const QByteArray manifest = "groups:\n"
                                    "  - folder: beta\n"
                                    "    product: assistant\n"
                                    "    config: '{\"open\":1}'\n";
        const Result<manifest::ImportPlan> plan = manifest::planImport(fixture.store(), manifest);
        QVERIFY(plan);
        QCOMPARE(planLines(*plan), QStringList{u"~ groups beta|"_s});
    }

    void aFailingApplyChangesNothing()
    {
        ExportFixture fixture;
        // A store rule the plan cannot foresee fails the last write.
        fixture.run(u"CREATE TRIGGER refuse_boom BEFORE INSERT ON routes WHEN NEW.target = 'beta' "
                    u"BEGIN SELECT RAISE(ABORT, 'boom'); END;\n"_s);
        QSqlQuery(fixture.store().database()).exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
        const QString db = fixture.store().databasePath();
        const QByteArray before = fileHash(db) + fileHash(db + u"-wal"_s);
        const QByteArray manifest = "groups:\n  - folder: gamma\n    product: assistant\n"
                                    "network_rules:\n  - folder: gamma\n    target: example.org\n"
                                    "routes:\n  - seq: 1\n    match: \"\"\n    target: beta\n";
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), manifest, u"test"_s);
        QVERIFY(!applied);
        QVERIFY(applied.error().message.contains(u"boom"_s));
        QCOMPARE(fileHash(db) + fileHash(db + u"-wal"_s), before);
        QVERIFY(!QFileInfo::exists(fixture.dataDir() + u"/groups/gamma"_s));
    }

    void serverExportIsReadAndReEmittedByteForByte()
    {
        const QByteArray server = readFile(QStringLiteral(SERVER_EXPORT));
        const Result<QList<manifest::Document>> documents = manifest::readManifest(server);
        QVERIFY2(documents, qPrintable(documents ? QString() : documents.error().message));
        QCOMPARE(documents->size(), 2);
        QByteArray again;
        for (const manifest::Document &document : *documents) {
            QVERIFY(manifest::checksumMatches(document));
            again += (again.isEmpty() ? "" : "---\n") + manifest::canonicalDocument(document);
        }
        QCOMPARE(QString::fromUtf8(again), QString::fromUtf8(server));
    }

    void serverShapedExportImportsWhatWeModel()
    {
        ExportFixture fixture(false);
        const QByteArray server = readFile(QStringLiteral(SERVER_EXPORT));
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), server, u"test"_s);
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        const QString ignored = applied->ignored.join(u'\n');
        for (const QString &resource :
             {u"installed_packages"_s, u"proxyd_routes"_s, u"route_tokens"_s, u"web_routes"_s,
              u"pending_actions"_s, u"scheduled_tasks"_s, u"onboarding_gates"_s, u"invites"_s})
            QVERIFY2(ignored.contains(resource + u':'), qPrintable(resource));
        QVERIFY(ignored.contains(u"cost_cap_cents_per_day"_s));
        QVERIFY(ignored.contains(u"atlas#standup"_s));
        QVERIFY(ignored.contains(u"claim predicate"_s));
        QVERIFY(ignored.contains(u"observe_window_messages"_s));
        QSqlQuery query(fixture.store().database());
        QVERIFY(query.exec(u"SELECT target FROM network_rules WHERE folder = 'atlas'"_s) &&
                query.next());
        QCOMPARE(query.value(0).toString(), u"github.com"_s);
        QVERIFY(query.exec(u"SELECT principal, params FROM acl WHERE action = 'mcp:send'"_s) &&
                query.next());
        QCOMPARE(query.value(0).toString(), u"atlas"_s);
        QCOMPARE(query.value(1).toString(), u"{\"jid\":\"telegram:*\"}"_s);
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "test_round_trip.moc"
