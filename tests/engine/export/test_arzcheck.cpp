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
using namespace Qt::StringLiterals;

namespace {

QString runArzcheck(const QByteArray &manifest, int &exitCode)
{
    QTemporaryDir dir;
    QFile file(dir.filePath(u"export.yaml"_s));
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
    const QString kept = QDir::temp().filePath(u"arzcheck-rejected.yaml"_s);
    QFile file(kept);
    if (file.open(QIODevice::WriteOnly))
        file.write(manifest);
    report += u"\n(our document: %1)"_s.arg(kept);
    QVERIFY2(exitCode == 0, qPrintable(report));
    QVERIFY2(report.contains(u"checksum matches content"_s), qPrintable(report));
    QVERIFY2(report.contains(u"file is byte-identical to the canonical rendering"_s),
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
        QTest::newRow("subtree") << QStringList{u"acme/support"_s} << manifest::optionalResources();
        QTest::newRow("base only") << QStringList{QString()} << QStringList{u"acl"_s};
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
        const QStringList texts = {u""_s,
                                   u" "_s,
                                   u"12"_s,
                                   u"0x1F"_s,
                                   u"0o17"_s,
                                   u"017"_s,
                                   u"09"_s,
                                   u"1_000"_s,
                                   u"1e3"_s,
                                   u"1e999"_s,
                                   u".5"_s,
                                   u"."_s,
                                   u"+.inf"_s,
                                   u".NaN"_s,
                                   u"-"_s,
                                   u"+"_s,
                                   u"-1"_s,
                                   u"true"_s,
                                   u"True"_s,
                                   u"tRUE"_s,
                                   u"yes"_s,
                                   u"yEs"_s,
                                   u"ON"_s,
                                   u"n"_s,
                                   u"null"_s,
                                   u"Null"_s,
                                   u"~"_s,
                                   u"2026-03-01"_s,
                                   u"2026-3-1"_s,
                                   u"2026-02-30"_s,
                                   u"2026-03-01T09:00:00Z"_s,
                                   u"2026-03-01t09:00:00+01:00"_s,
                                   u"2026-03-01 09:00:00"_s,
                                   u"2026-03-01T09:00:00"_s,
                                   u"2026-03-01 09:00:00Z"_s,
                                   u"12:30:00"_s,
                                   u"1:2"_s,
                                   u"190:20:30.15"_s,
                                   u"a\tb"_s,
                                   u"\t"_s,
                                   u"a\u0001b"_s,
                                   u"del\u007f"_s,
                                   u"*"_s,
                                   u"**"_s,
                                   u"&a"_s,
                                   u"!x"_s,
                                   u"|"_s,
                                   u">"_s,
                                   u"%x"_s,
                                   u"@x"_s,
                                   u"`x`"_s,
                                   u"[x"_s,
                                   u"]x"_s,
                                   u"{x"_s,
                                   u"}x"_s,
                                   u"#x"_s,
                                   u",x"_s,
                                   u"?x"_s,
                                   u"? x"_s,
                                   u":x"_s,
                                   u": x"_s,
                                   u"x:"_s,
                                   u"x: y"_s,
                                   u"x:y"_s,
                                   u"a #b"_s,
                                   u"a#b"_s,
                                   u"- x"_s,
                                   u"-x"_s,
                                   u"--- x"_s,
                                   u"..."_s,
                                   u"'q'"_s,
                                   u"\"q\""_s,
                                   u"it's"_s,
                                   u"back\\slash"_s,
                                   u"lead "_s,
                                   u" lead"_s,
                                   u"a  b"_s,
                                   u"a\nb"_s,
                                   u"a\nb\n"_s,
                                   u"a\n\nb"_s,
                                   u" \nx"_s,
                                   u"x \ny"_s,
                                   u"x\n y"_s,
                                   u"x\r\ny"_s,
                                   u"\ufeff"_s,
                                   u"\ufeffafter a BOM"_s,
                                   u"a\u2029c"_s,
                                   u"tail\n\n"_s,
                                   u"b\u00fccher"_s,
                                   u"\u00a0nbsp"_s,
                                   u"\u0001\u0085nel"_s,
                                   u"line\u2028sep"_s,
                                   u"\ufeffbom"_s,
                                   u"emoji \U0001F600"_s,
                                   u"\u65e5\u672c"_s,
                                   u"<<"_s,
                                   u"=x"_s,
                                   u"platform=telegram room=group/42"_s,
                                   u"$(id)"_s,
                                   u"a,b"_s,
                                   u"x\u00e9:"_s,
                                   u"0 2 * * *"_s};
        manifest::Document document;
        const manifest::ResourceSpec &spec = *manifest::findResource(u"routes"_s);
        qint64 seq = -3;
        for (const QString &text : texts) {
            manifest::Row row = manifest::emptyRow(spec);
            row.set(spec, u"seq"_s, QString::number(seq++));
            row.set(spec, u"match"_s, text);
            row.set(spec, u"target"_s, text);
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
        fixture.run(
            u"INSERT INTO routes (seq, match, target) VALUES (3, char(10) || 'platform=x', 'beta');\n"_s);
        manifest::ExportOptions options;
        options.include = {u"routes"_s};
        const Result<manifest::Projection> projection = manifest::project(fixture.store(), options);
        QVERIFY(projection);
        QVERIFY(std::any_of(projection->leftOut.cbegin(), projection->leftOut.cend(),
                            [](const manifest::LeftOut &row) {
                                return row.row.startsWith(u"3|\n"_s) &&
                                       row.reason.contains(u"line break"_s);
                            }));
        expectAccepted(manifest::manifestText(*projection));
    }
};

QTEST_GUILESS_MAIN(TestArzcheck)
#include "test_arzcheck.moc"
