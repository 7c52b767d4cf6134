// Export -> import -> export loses nothing a manifest can carry; the plan is
// scoped like arizuko's apply; a failing apply leaves the store as it was;
// a folder home's history is never exported and an import leaves it alone.

#include "export/canonical_emitter.h"
#include "export/import_plan.h"
#include "export/manifest_reader.h"
#include "export/projection.h"
#include "export/script_writer.h"
#include "export_fixture.h"
#include "folders/folders.h"
#include "history/home_history.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <git2.h>

using namespace arizuko;

namespace {

// Everything a manifest carries both ways: secret names are export-only,
// since a value never travels.
QByteArray fullManifest(store::Store &store)
{
    manifest::ExportOptions options;
    options.include = {QStringLiteral("acl"), QStringLiteral("acl_membership"),
                       QStringLiteral("routes")};
    const Result<manifest::Projection> projection = manifest::project(store, options);
    if (!projection)
        qFatal("export failed: %s", qPrintable(projection.error().message));
    return manifest::manifestText(*projection);
}

QStringList planLines(const manifest::ImportPlan &plan)
{
    QStringList lines;
    for (const manifest::PlannedRow &row : plan.rows) {
        const QString sign = row.kind == manifest::PlannedRow::Kind::Add      ? QStringLiteral("+")
                             : row.kind == manifest::PlannedRow::Kind::Change ? QStringLiteral("~")
                                                                              : QStringLiteral("-");
        lines.append(QStringLiteral("%1 %2 %3").arg(sign, row.resource, row.key));
    }
    return lines;
}

// The store's connector grants (ext: and shell:env: actions), one line each,
// with everything a manifest carries of them.
QStringList connectorGrants(store::Store &store)
{
    QSqlQuery query(store.database());
    if (!query.exec(QStringLiteral(
            "SELECT principal, action, scope, effect, params, granted_by, granted_at FROM acl "
            "WHERE action LIKE 'ext:%' OR action LIKE 'shell:env:%' ORDER BY action, principal")))
        qFatal("%s", qPrintable(query.lastError().text()));
    QStringList rows;
    while (query.next()) {
        QStringList fields;
        for (int column = 0; column < 7; ++column)
            fields << query.value(column).toString();
        rows << fields.join(u'|');
    }
    return rows;
}

// What the history's references name: "refs/… <commit>" per reference.
QStringList references(const QString &repositoryPath)
{
    git_libgit2_init();
    QStringList names;
    git_repository *repository = nullptr;
    git_reference_iterator *iterator = nullptr;
    if (git_repository_open_bare(&repository, QFile::encodeName(repositoryPath).constData()) == 0 &&
        git_reference_iterator_new(&iterator, repository) == 0) {
        git_reference *reference = nullptr;
        while (git_reference_next(&reference, iterator) == 0) {
            const git_oid *target = git_reference_target(reference);
            names << QString::fromUtf8(git_reference_name(reference)) + QLatin1Char(' ') +
                         (target ? QString::fromLatin1(git_oid_tostr_s(target)) : QString());
            git_reference_free(reference);
        }
    }
    git_reference_iterator_free(iterator);
    git_repository_free(repository);
    git_libgit2_shutdown();
    names.sort();
    return names;
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
            manifest::applyImport(target.store(), first, QStringLiteral("test"));
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        QCOMPARE(QString::fromUtf8(fullManifest(target.store())), QString::fromUtf8(first));
        // And the second import plans nothing.
        const Result<manifest::ImportPlan> again = manifest::planImport(target.store(), first);
        QVERIFY(again);
        QVERIFY2(again->changesNothing(), qPrintable(planLines(*again).join(u'\n')));
    }

    // docs/export.md, "Connectors": ext: grants (globs and denies too) and
    // shell:env: grants are acl rows like any other, their action written as
    // it is, and an import brings them back as they were.
    void connectorGrantsTravelAsAclRows()
    {
        ExportFixture source;
        const QStringList exported = connectorGrants(source.store());
        QCOMPARE(exported.size(), 3);
        const QByteArray manifest = fullManifest(source.store());
        for (const char *row : {"  - principal: folder:acme\n"
                                "    action: ext:github:**\n"
                                "    scope: acme\n"
                                "    effect: allow\n",
                                "  - principal: folder:beta\n"
                                "    action: ext:github:*:write\n"
                                "    scope: beta\n"
                                "    effect: deny\n",
                                "  - principal: folder:acme/support\n"
                                "    action: shell:env:GITHUB_TOKEN\n"
                                "    scope: acme/support\n"
                                "    effect: allow\n"})
            QVERIFY2(manifest.contains(row), row);

        ExportFixture target(false);
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(target.store(), manifest, QStringLiteral("test"));
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        QCOMPARE(connectorGrants(target.store()), exported);
    }

    void importCreatesFolderHomes()
    {
        ExportFixture source;
        ExportFixture target(false);
        QVERIFY(manifest::applyImport(target.store(), fullManifest(source.store()),
                                      QStringLiteral("test")));
        const Result<QString> home = folders::Folders(target.store(), QStringLiteral("test"))
                                         .homePath(QStringLiteral("acme/support/tier2"));
        QVERIFY(home);
        QVERIFY(QFileInfo(*home).isDir());
    }

    void folderScopedResourcesTouchOnlyTheirFolders()
    {
        ExportFixture fixture;
        const QByteArray manifest = "network_rules:\n"
                                    "  - folder: acme\n"
                                    "    target: gitlab.com\n";
        const Result<manifest::ImportPlan> plan = manifest::planImport(fixture.store(), manifest);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().message));
        QCOMPARE(planLines(*plan),
                 (QStringList{QStringLiteral("+ network_rules acme|gitlab.com|"),
                              QStringLiteral("- network_rules acme|github.com|")}));
    }

    void wholesaleResourcesReplaceEverything()
    {
        ExportFixture fixture;
        const Result<manifest::ImportPlan> plan = manifest::planImport(
            fixture.store(), "routes:\n  - seq: 1\n    match: \"\"\n    target: beta\n");
        QVERIFY(plan);
        const QStringList lines = planLines(*plan);
        QVERIFY(lines.contains(QStringLiteral("+ routes 1||beta|")));
        QVERIFY(lines.contains(QStringLiteral("- routes 10|platform=slack|acme/support#observe|")));
        QVERIFY(lines.contains(QStringLiteral("- routes -1|verb=mention|beta|")));
        // The desktop-only route cannot be written in a manifest, so it stays.
        QVERIFY(!lines.join(u'\n').contains(QStringLiteral("chat=corp")));
        QVERIFY(plan->notes.join(u'\n').contains(QStringLiteral("kept as they are")));
    }

    void emptyListDeletesEveryRowOfThatResource()
    {
        ExportFixture fixture;
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), "acl_membership: []\n", QStringLiteral("test"));
        QVERIFY(applied);
        QSqlQuery query(fixture.store().database());
        QVERIFY(query.exec(QStringLiteral("SELECT count(*) FROM acl_membership")) && query.next());
        QCOMPARE(query.value(0).toInt(), 0);
        QVERIFY(query.exec(QStringLiteral("SELECT count(*) FROM network_rules")) && query.next());
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
        QCOMPARE(planLines(*plan), QStringList{QStringLiteral("~ groups beta|")});
    }

    void aFailingApplyChangesNothing()
    {
        ExportFixture fixture;
        // A store rule the plan cannot foresee fails the last write.
        fixture.run(QStringLiteral(
            "CREATE TRIGGER refuse_boom BEFORE INSERT ON routes WHEN NEW.target = 'beta' "
            "BEGIN SELECT RAISE(ABORT, 'boom'); END;\n"));
        QSqlQuery(fixture.store().database())
            .exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
        const QString db = fixture.store().databasePath();
        const QByteArray before = fileHash(db) + fileHash(db + QStringLiteral("-wal"));
        const QDir homes(fixture.dataDir() + QStringLiteral("/homes"));
        const QStringList homesBefore = homes.entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        const QByteArray manifest = "groups:\n  - folder: gamma\n    product: assistant\n"
                                    "network_rules:\n  - folder: gamma\n    target: example.org\n"
                                    "routes:\n  - seq: 1\n    match: \"\"\n    target: beta\n";
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), manifest, QStringLiteral("test"));
        QVERIFY(!applied);
        QVERIFY(applied.error().message.contains(QStringLiteral("boom")));
        QCOMPARE(fileHash(db) + fileHash(db + QStringLiteral("-wal")), before);
        QCOMPARE(homes.entryList(QDir::AllEntries | QDir::NoDotAndDotDot), homesBefore);
    }

    // The history holds what the folder's turns wrote in its home: it stays
    // on this machine, and an import that names the folder changes its row,
    // never its home or history.
    void theHomeHistoryIsNeverExportedAndAnImportLeavesIt()
    {
        ExportFixture fixture(false);
        folders::Folders folders(fixture.store(), QStringLiteral("test"));
        QVERIFY(folders.add(QStringLiteral("corp")));
        const Result<folders::Home> home = folders.home(QStringLiteral("corp"));
        QVERIFY(home);
        const QByteArray manifestBefore = fullManifest(fixture.store());
        const Result<manifest::Projection> projection =
            manifest::project(fixture.store(), manifest::ExportOptions());
        QVERIFY(projection);
        const QByteArray scriptBefore = manifest::scriptText(*projection);

        Result<history::HomeHistory> history =
            history::HomeHistory::open(fixture.dataDir(), home->id, {});
        QVERIFY2(history, qPrintable(history ? QString() : history.error().message));
        const history::TurnLabel turn{QStringLiteral("turn-1"), QStringLiteral("main"),
                                      QStringLiteral("write a note")};
        QVERIFY(history->recordBefore(turn));
        QFile note(home->path + QStringLiteral("/note.txt"));
        QVERIFY(note.open(QIODevice::WriteOnly));
        note.write("a note the turn wrote\n");
        note.close();
        QVERIFY(history->recordAfter(turn));
        const QStringList recorded = references(history->path());
        QCOMPARE(recorded.size(), 3); // refs/heads/home, the turn's before and after

        // Export: the same bytes as before the history existed, naming none of it.
        const QByteArray exported = fullManifest(fixture.store());
        QCOMPARE(QString::fromUtf8(exported), QString::fromUtf8(manifestBefore));
        const Result<manifest::Projection> again =
            manifest::project(fixture.store(), manifest::ExportOptions());
        QVERIFY(again);
        const QByteArray script = manifest::scriptText(*again);
        QCOMPARE(QString::fromUtf8(script), QString::fromUtf8(scriptBefore));
        for (const QByteArray &output : {exported, script}) {
            QVERIFY(!output.contains(home->id.toUtf8()));
            QVERIFY(!output.contains("history"));
            QVERIFY(!output.contains("a note the turn wrote"));
            for (const QString &reference : recorded)
                QVERIFY2(!output.contains(reference.section(u' ', 1).toLatin1()),
                         qPrintable(reference));
        }

        // An import that changes the folder's row keeps its home and history.
        const QByteArray changed = "groups:\n"
                                   "  - folder: corp\n"
                                   "    product: assistant\n"
                                   "    config: '{\"open\":1}'\n";
        const Result<manifest::ImportPlan> applied =
            manifest::applyImport(fixture.store(), changed, QStringLiteral("test"));
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        QCOMPARE(planLines(*applied), QStringList{QStringLiteral("~ groups corp|")});
        const Result<folders::Home> homeAfter = folders.home(QStringLiteral("corp"));
        QVERIFY(homeAfter);
        QCOMPARE(homeAfter->id, home->id);
        QCOMPARE(references(history::HomeHistory::repositoryPath(fixture.dataDir(), home->id)),
                 recorded);
        const Result<history::HomeHistory> kept =
            history::HomeHistory::openExisting(fixture.dataDir(), homeAfter->id, {});
        QVERIFY2(kept, qPrintable(kept ? QString() : kept.error().message));
        const Result<history::TurnChanges> changes = kept->changes(turn.turnId, false);
        QVERIFY(changes);
        QCOMPARE(changes->files.size(), 1);
        QCOMPARE(changes->files.first().path, QStringLiteral("note.txt"));
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
            manifest::applyImport(fixture.store(), server, QStringLiteral("test"));
        QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().message));
        const QString ignored = applied->ignored.join(u'\n');
        for (const QString &resource :
             {QStringLiteral("installed_packages"), QStringLiteral("proxyd_routes"),
              QStringLiteral("route_tokens"), QStringLiteral("web_routes"),
              QStringLiteral("pending_actions"), QStringLiteral("scheduled_tasks"),
              QStringLiteral("onboarding_gates"), QStringLiteral("invites")})
            QVERIFY2(ignored.contains(resource + u':'), qPrintable(resource));
        QVERIFY(ignored.contains(QStringLiteral("cost_cap_cents_per_day")));
        QVERIFY(ignored.contains(QStringLiteral("atlas#standup")));
        QVERIFY(ignored.contains(QStringLiteral("claim predicate")));
        QVERIFY(ignored.contains(QStringLiteral("observe_window_messages")));
        QSqlQuery query(fixture.store().database());
        QVERIFY(
            query.exec(QStringLiteral("SELECT target FROM network_rules WHERE folder = 'atlas'")) &&
            query.next());
        QCOMPARE(query.value(0).toString(), QStringLiteral("github.com"));
        QVERIFY(query.exec(QStringLiteral(
                    "SELECT principal, params FROM acl WHERE action = 'mcp:send'")) &&
                query.next());
        QCOMPARE(query.value(0).toString(), QStringLiteral("atlas"));
        QCOMPARE(query.value(1).toString(), QStringLiteral("{\"jid\":\"telegram:*\"}"));
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "test_round_trip.moc"
