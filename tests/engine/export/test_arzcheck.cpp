// Our canonical form against an independent implementation on yaml.v3
// itself: arzcheck must find every export byte-identical to its canonical
// rendering, with a checksum matching the content.

#include "export/canonical_emitter.h"
#include "export/projection.h"
#include "export/yaml_scalar.h"
#include "export_fixture.h"

#include <QProcess>
#include <QTest>

using namespace arizuko;

namespace {

QString runArzcheck(const QByteArray &manifest, int &exitCode)
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("export.yaml")));
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(manifest);
    file.close();
    QProcess checker;
    checker.start(QStringLiteral(ARZCHECK), {file.fileName()});
    if (!checker.waitForFinished(30000))
        return {};
    exitCode = checker.exitCode();
    return QString::fromUtf8(checker.readAllStandardOutput() + checker.readAllStandardError());
}

void expectAccepted(const QByteArray &manifest)
{
    int exitCode = -1;
    QString report = runArzcheck(manifest, exitCode);
    // Kept for `arzcheck -o canonical.yaml` and a diff by hand.
    const QString kept = QDir::temp().filePath(QStringLiteral("arzcheck-rejected.yaml"));
    QFile file(kept);
    if (file.open(QIODevice::WriteOnly))
        file.write(manifest);
    report += QStringLiteral("\n(our document: %1)").arg(kept);
    QVERIFY2(exitCode == 0, qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("checksum matches content")), qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("file is byte-identical to the canonical rendering")),
             qPrintable(report));
    file.remove();
}

} // namespace

class TestArzcheck : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(QStringLiteral(ARZCHECK)).isExecutable(),
                 "arzcheck is not built: install golang-go and golang-gopkg-yaml.v3-dev "
                 "(./dev deps) and re-run cmake");
    }

    void exportsAreAccepted_data()
    {
        QTest::addColumn<QStringList>("folders");
        QTest::addColumn<QStringList>("include");
        QTest::newRow("default") << QStringList() << QStringList();
        QTest::newRow("everything") << QStringList() << manifest::optionalResources();
        QTest::newRow("subtree") << QStringList{QStringLiteral("acme/support")}
                                 << manifest::optionalResources();
        QTest::newRow("base only") << QStringList{QString()} << QStringList{QStringLiteral("acl")};
    }

    void exportsAreAccepted()
    {
        QFETCH(QStringList, folders);
        QFETCH(QStringList, include);
        ExportFixture fixture;
        manifest::ExportOptions options;
        options.folders = folders;
        options.include = include;
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(projection);
        expectAccepted(manifest::manifestText(*projection));
    }

    // Strings chosen to hit every quoting rule of yaml.v3, in a field that
    // carries anything (a route's match) and in PK order.
    void everyQuotingRuleAgrees()
    {
        const QStringList texts = {QStringLiteral(""),
                                   QStringLiteral(" "),
                                   QStringLiteral("12"),
                                   QStringLiteral("0x1F"),
                                   QStringLiteral("0o17"),
                                   QStringLiteral("017"),
                                   QStringLiteral("09"),
                                   QStringLiteral("1_000"),
                                   QStringLiteral("1e3"),
                                   QStringLiteral("1e999"),
                                   QStringLiteral(".5"),
                                   QStringLiteral("."),
                                   QStringLiteral("+.inf"),
                                   QStringLiteral(".NaN"),
                                   QStringLiteral("-"),
                                   QStringLiteral("+"),
                                   QStringLiteral("-1"),
                                   QStringLiteral("true"),
                                   QStringLiteral("True"),
                                   QStringLiteral("tRUE"),
                                   QStringLiteral("yes"),
                                   QStringLiteral("yEs"),
                                   QStringLiteral("ON"),
                                   QStringLiteral("n"),
                                   QStringLiteral("null"),
                                   QStringLiteral("Null"),
                                   QStringLiteral("~"),
                                   QStringLiteral("2026-03-01"),
                                   QStringLiteral("2026-3-1"),
                                   QStringLiteral("2026-02-30"),
                                   QStringLiteral("2026-03-01T09:00:00Z"),
                                   QStringLiteral("2026-03-01t09:00:00+01:00"),
                                   QStringLiteral("2026-03-01 09:00:00"),
                                   QStringLiteral("2026-03-01T09:00:00"),
                                   QStringLiteral("2026-03-01 09:00:00Z"),
                                   QStringLiteral("12:30:00"),
                                   QStringLiteral("1:2"),
                                   QStringLiteral("190:20:30.15"),
                                   QStringLiteral("a\tb"),
                                   QStringLiteral("\t"),
                                   QStringLiteral("a\u0001b"),
                                   QStringLiteral("del\u007f"),
                                   QStringLiteral("*"),
                                   QStringLiteral("**"),
                                   QStringLiteral("&a"),
                                   QStringLiteral("!x"),
                                   QStringLiteral("|"),
                                   QStringLiteral(">"),
                                   QStringLiteral("%x"),
                                   QStringLiteral("@x"),
                                   QStringLiteral("`x`"),
                                   QStringLiteral("[x"),
                                   QStringLiteral("]x"),
                                   QStringLiteral("{x"),
                                   QStringLiteral("}x"),
                                   QStringLiteral("#x"),
                                   QStringLiteral(",x"),
                                   QStringLiteral("?x"),
                                   QStringLiteral("? x"),
                                   QStringLiteral(":x"),
                                   QStringLiteral(": x"),
                                   QStringLiteral("x:"),
                                   QStringLiteral("x: y"),
                                   QStringLiteral("x:y"),
                                   QStringLiteral("a #b"),
                                   QStringLiteral("a#b"),
                                   QStringLiteral("- x"),
                                   QStringLiteral("-x"),
                                   QStringLiteral("--- x"),
                                   QStringLiteral("..."),
                                   QStringLiteral("'q'"),
                                   QStringLiteral("\"q\""),
                                   QStringLiteral("it's"),
                                   QStringLiteral("back\\slash"),
                                   QStringLiteral("lead "),
                                   QStringLiteral(" lead"),
                                   QStringLiteral("a  b"),
                                   QStringLiteral("a\nb"),
                                   QStringLiteral("a\nb\n"),
                                   QStringLiteral("a\n\nb"),
                                   QStringLiteral(" \nx"),
                                   QStringLiteral("x \ny"),
                                   QStringLiteral("x\n y"),
                                   QStringLiteral("x\r\ny"),
                                   QStringLiteral("\ufeff"),
                                   QStringLiteral("\ufeffafter a BOM"),
                                   QStringLiteral("a\u2029c"),
                                   QStringLiteral("tail\n\n"),
                                   QStringLiteral("b\u00fccher"),
                                   QStringLiteral("\u00a0nbsp"),
                                   QStringLiteral("\u0001\u0085nel"),
                                   QStringLiteral("line\u2028sep"),
                                   QStringLiteral("\ufeffbom"),
                                   QStringLiteral("emoji \U0001F600"),
                                   QStringLiteral("\u65e5\u672c"),
                                   QStringLiteral("<<"),
                                   QStringLiteral("=x"),
                                   QStringLiteral("platform=telegram room=group/42"),
                                   QStringLiteral("$(id)"),
                                   QStringLiteral("a,b"),
                                   QStringLiteral("x\u00e9:"),
                                   QStringLiteral("0 2 * * *")};
        manifest::Document document;
        const manifest::ResourceSpec &spec = *manifest::findResource(QStringLiteral("routes"));
        qint64 seq = -3;
        for (const QString &text : texts) {
            manifest::Row row = manifest::emptyRow(spec);
            row.set(spec, QStringLiteral("seq"), QString::number(seq++));
            row.set(spec, QStringLiteral("match"), text);
            row.set(spec, QStringLiteral("target"), text);
            document.resources[spec.name].append(row);
        }
        expectAccepted(manifest::canonicalDocument(document));
    }

    // What yaml.v3 writes but cannot read back as written is never exported.
    void unwritableTextIsLeftOut()
    {
        QVERIFY(!manifest::yamlWritable("\nleading break"));
        QVERIFY(!manifest::yamlWritable("a\xC2\x85"
                                        "b"));
        QVERIFY(manifest::yamlWritable("a\nb"));
        ExportFixture fixture;
        fixture.run(QStringLiteral("INSERT INTO routes (seq, match, target) VALUES (3, char(10) || "
                                   "'platform=x', 'beta');\n"));
        manifest::ExportOptions options;
        options.include = {QStringLiteral("routes")};
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(projection);
        QVERIFY(std::any_of(projection->leftOut.cbegin(), projection->leftOut.cend(),
                            [](const manifest::LeftOut &row) {
                                return row.row.startsWith(QStringLiteral("3|\n")) &&
                                       row.reason.contains(QStringLiteral("line break"));
                            }));
        expectAccepted(manifest::manifestText(*projection));
    }
};

QTEST_GUILESS_MAIN(TestArzcheck)
#include "test_arzcheck.moc"
