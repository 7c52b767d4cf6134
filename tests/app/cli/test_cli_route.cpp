// `arizukoctl route` end to end through the real binary: add, list in seq
// order, test (with #observe and no-match exit 1), rm and usage errors.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliRouteTest : public QObject
{
    Q_OBJECT

private slots:
    void addListTestRemove()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("20"),
                          QStringLiteral("platform=cli"), QStringLiteral("inbox#observe")})
                     .exitCode,
                 0);
        CliRun run = cli.run({QStringLiteral("--json"), QStringLiteral("route"),
                              QStringLiteral("add"), QStringLiteral("10"),
                              QStringLiteral("platform=cli chat=corp/*"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 0);
        const qint64 corpRoute = run.json().object().value(QStringLiteral("id")).toInteger();

        run = cli.run({QStringLiteral("route"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].contains(" 10 ") && lines[2].contains("inbox#observe"));

        run = cli.run({QStringLiteral("route"), QStringLiteral("test"),
                       QStringLiteral("platform=cli"), QStringLiteral("chat=corp/eng")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("corp by route #"));
        run = cli.run({QStringLiteral("--json"), QStringLiteral("route"), QStringLiteral("test"),
                       QStringLiteral("platform=cli"), QStringLiteral("chat=corp/eng/sre")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("folder")).toString(),
                 QStringLiteral("inbox"));
        QVERIFY(run.json().object().value(QStringLiteral("observe")).toBool());
        run = cli.run(
            {QStringLiteral("route"), QStringLiteral("test"), QStringLiteral("platform=web")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("no route matches"));

        QCOMPARE(
            cli.run({QStringLiteral("route"), QStringLiteral("rm"), QString::number(corpRoute)})
                .exitCode,
            0);
        run = cli.run({QStringLiteral("route"), QStringLiteral("test"),
                       QStringLiteral("platform=cli"), QStringLiteral("chat=corp/eng")});
        QVERIFY(run.out.startsWith("inbox (observe)"));
        QCOMPARE(
            cli.run({QStringLiteral("route"), QStringLiteral("rm"), QString::number(corpRoute)})
                .exitCode,
            1);
    }

    void refusalsAndUsage()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        CliRun run = cli.run({QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("ten"),
                              QStringLiteral("a=b"), QStringLiteral("x")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("<seq> 'ten'"));
        run = cli.run({QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("1"),
                       QStringLiteral("platform"), QStringLiteral("x")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'platform' is not key=glob"));
        run = cli.run({QStringLiteral("route"), QStringLiteral("add"), QStringLiteral("1"),
                       QStringLiteral("a=b"), QStringLiteral("x#watch")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("#observe"));
        run = cli.run({QStringLiteral("route"), QStringLiteral("test"), QStringLiteral("novalue")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'novalue'"));
        QCOMPARE(
            cli.run({QStringLiteral("--json"), QStringLiteral("route"), QStringLiteral("list")})
                .json()
                .array()
                .size(),
            0);
    }
};

QTEST_GUILESS_MAIN(CliRouteTest)
#include "test_cli_route.moc"
