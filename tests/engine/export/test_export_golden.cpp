// The export of a fixed store against golden files, and the choices around
// it: what is carried by default, subtree selection, refusal, determinism.
// To change a golden file on purpose: UPDATE_GOLDEN=1 ./test_export_golden (that
// run fails by design), review the diff, then run it again without the variable.

#include "export/projection.h"
#include "export/script_writer.h"
#include "export_fixture.h"

#include <QTest>

using namespace arizuko;

namespace {

manifest::Projection exported(store::Store &store, manifest::ExportOptions options)
{
    const Result<manifest::Projection> projection = manifest::project(store, options);
    if (!projection)
        qFatal("export failed: %s", qPrintable(projection.error().message));
    return *projection;
}

manifest::ExportOptions everything()
{
    manifest::ExportOptions options;
    options.include = manifest::optionalResources();
    return options;
}

void compareGolden(const QByteArray &actual, const QString &name)
{
    const QString path = QStringLiteral(EXPORT_GOLDEN "/") + name;
    // An update run never passes: it rewrote what it would compare against.
    if (qEnvironmentVariableIsSet("UPDATE_GOLDEN")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(actual);
        QFAIL(qPrintable(QStringLiteral("%1 rewritten (UPDATE_GOLDEN): review the diff, then "
                                        "run again without UPDATE_GOLDEN")
                             .arg(path)));
    }
    QCOMPARE(QString::fromUtf8(actual), QString::fromUtf8(readFile(path)));
}

QStringList leftOutRows(const manifest::Projection &projection)
{
    QStringList rows;
    for (const manifest::LeftOut &row : projection.leftOut)
        rows.append(row.resource + u' ' + row.row);
    return rows;
}

} // namespace

class TestExportGolden : public QObject
{
    Q_OBJECT

private slots:
    void defaultManifestIsGolden()
    {
        ExportFixture fixture;
        compareGolden(manifest::manifestText(exported(fixture.store(), {})),
                      QStringLiteral("default.yaml"));
    }

    void fullManifestIsGolden()
    {
        ExportFixture fixture;
        compareGolden(manifest::manifestText(exported(fixture.store(), everything())),
                      QStringLiteral("full.yaml"));
    }

    void scriptIsGolden()
    {
        ExportFixture fixture;
        compareGolden(manifest::scriptText(exported(fixture.store(), everything())),
                      QStringLiteral("full.sh"));
    }

    void defaultCarriesOnlyFolderScopedResources()
    {
        ExportFixture fixture;
        const manifest::Projection projection = exported(fixture.store(), {});
        QStringList keys;
        for (const auto &entry : projection.document.resources)
            keys.append(entry.first);
        QCOMPARE(keys, (QStringList{QStringLiteral("groups"), QStringLiteral("network_rules")}));
        const QByteArray text = manifest::manifestText(projection);
        QVERIFY(!text.contains("[]"));
        QVERIFY(!text.contains("acl"));
        QVERIFY(!text.contains("routes"));
    }

    void wholesaleResourcesWarnWhatTheyReplace()
    {
        ExportFixture fixture;
        manifest::ExportOptions options;
        options.include = {QStringLiteral("routes")};
        const manifest::Projection projection = exported(fixture.store(), options);
        QCOMPARE(projection.warnings.filter(QStringLiteral("replaces EVERY routes row")).size(), 1);
        QVERIFY(projection.warnings.filter(QStringLiteral("acl")).isEmpty());
    }

    void unrepresentableRowsAreReportedByRow()
    {
        ExportFixture fixture;
        const QStringList rows = leftOutRows(exported(fixture.store(), everything()));
        QVERIFY(
            rows.contains(QStringLiteral("network_rules acme/support|tracker.example| (deny)")));
        QVERIFY(rows.contains(QStringLiteral("network_rules beta|localhost|")));
        QVERIFY(rows.contains(QStringLiteral("acl corp/*|interact|corp/**|allow|")));
        QVERIFY(rows.contains(QStringLiteral("routes 5|chat=corp/*|beta|")));
        QVERIFY(rows.contains(QStringLiteral("secrets folder|acme|lower_case|")));
        QCOMPARE(rows.size(), 5);
    }

    // arizuko decides by host only: a rule by method and path is left out,
    // never exported as the host rule that would allow every request.
    void requestRulesAreLeftOutNotWidened()
    {
        ExportFixture fixture;
        QSqlQuery query(fixture.store().database());
        QVERIFY2(query.exec(QStringLiteral(
                     "INSERT INTO network_rules (folder, target, kind, created_at, methods, path) "
                     "VALUES ('beta', 'api.acme.example', 'allow', '2026-03-01T09:00:00.000Z', "
                     "'GET', '/repos/**')")),
                 qPrintable(query.lastError().text()));
        const manifest::Projection projection = exported(fixture.store(), everything());
        QVERIFY2(
            leftOutRows(projection)
                .contains(QStringLiteral("network_rules beta|api.acme.example| (GET /repos/**)")),
            qPrintable(leftOutRows(projection).join(u'\n')));
        QVERIFY(!manifest::manifestText(projection).contains("api.acme.example"));
    }

    void refuseFailsNamingEveryRow()
    {
        ExportFixture fixture;
        manifest::ExportOptions options = everything();
        options.unrepresentable = manifest::Unrepresentable::Refuse;
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(!projection);
        QCOMPARE(projection.error().code, QStringLiteral("export.unrepresentable"));
        QVERIFY(projection.error().message.contains(QStringLiteral("tracker.example")));
        QVERIFY(projection.error().message.contains(QStringLiteral("localhost")));
        QVERIFY(projection.error().message.contains(QStringLiteral("chat=corp/*")));
    }

    void subtreeCarriesOnlyItsFolders()
    {
        ExportFixture fixture;
        manifest::ExportOptions options = everything();
        options.folders = {QStringLiteral("acme/support")};
        const manifest::Projection projection = exported(fixture.store(), options);
        const QByteArray text = manifest::manifestText(projection);
        QVERIFY(text.contains("folder: acme/support\n"));
        QVERIFY(text.contains("folder: acme/support/tier2\n"));
        QVERIFY(!text.contains("folder: acme\n"));
        QVERIFY(!text.contains("folder: beta"));
        QVERIFY(!text.contains("folder: \"\""));
        // A grant of the unselected acme, and routes to it, are reported.
        const QStringList rows = leftOutRows(projection);
        QVERIFY(rows.contains(QStringLiteral("acl acme|mcp:send_file|acme/**|allow|")));
        QVERIFY(rows.contains(QStringLiteral("routes 2|platform=telegram room=group/42|acme|")));
    }

    void twoExportsAreIdentical()
    {
        ExportFixture fixture;
        QCOMPARE(manifest::manifestText(exported(fixture.store(), everything())),
                 manifest::manifestText(exported(fixture.store(), everything())));
        QCOMPARE(manifest::scriptText(exported(fixture.store(), everything())),
                 manifest::scriptText(exported(fixture.store(), everything())));
    }

    void secretValuesNeverLeave()
    {
        ExportFixture fixture;
        const manifest::Projection projection = exported(fixture.store(), everything());
        QVERIFY(!manifest::manifestText(projection).contains("not-a-real-value"));
        QVERIFY(!manifest::scriptText(projection).contains("not-a-real-value"));
    }

    void unknownFolderOrResourceIsRefused()
    {
        ExportFixture fixture;
        manifest::ExportOptions options;
        options.folders = {QStringLiteral("nope")};
        QCOMPARE(manifest::project(fixture.store(), options).error().code,
                 QStringLiteral("export.no-folder"));
        options = {};
        options.include = {QStringLiteral("web_routes")};
        QCOMPARE(manifest::project(fixture.store(), options).error().code,
                 QStringLiteral("export.bad-resource"));
    }
};

QTEST_GUILESS_MAIN(TestExportGolden)
#include "test_export_golden.moc"
