// `arizukoctl route` end to end through the real binary: add, list in seq
// order, test (with #observe and no-match exit 1), rm and usage errors.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class CliRouteTest : public QObject
{
    Q_OBJECT

private slots:
    void addListTestRemove()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"route"_s, u"add"_s, u"20"_s, u"platform=cli"_s, u"inbox#observe"_s})
                     .exitCode,
                 0);
        CliRun run = cli.run(
            {u"--json"_s, u"route"_s, u"add"_s, u"10"_s, u"platform=cli chat=corp/*"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 0);
        const qint64 corpRoute = run.json().object().value(u"id"_s).toInteger();

        run = cli.run({u"route"_s, u"list"_s});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].contains(" 10 ") && lines[2].contains("inbox#observe"));

        run = cli.run({u"route"_s, u"test"_s, u"platform=cli"_s, u"chat=corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("corp by route #"));
        run = cli.run(
            {u"--json"_s, u"route"_s, u"test"_s, u"platform=cli"_s, u"chat=corp/eng/sre"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(u"folder"_s).toString(), u"inbox"_s);
        QVERIFY(run.json().object().value(u"observe"_s).toBool());
        run = cli.run({u"route"_s, u"test"_s, u"platform=web"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("no route matches"));

        QCOMPARE(cli.run({u"route"_s, u"rm"_s, QString::number(corpRoute)}).exitCode, 0);
        run = cli.run({u"route"_s, u"test"_s, u"platform=cli"_s, u"chat=corp/eng"_s});
        QVERIFY(run.out.startsWith("inbox (observe)"));
        QCOMPARE(cli.run({u"route"_s, u"rm"_s, QString::number(corpRoute)}).exitCode, 1);
    }

    void refusalsAndUsage()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        CliRun run = cli.run({u"route"_s, u"add"_s, u"ten"_s, u"a=b"_s, u"x"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("<seq> 'ten'"));
        run = cli.run({u"route"_s, u"add"_s, u"1"_s, u"platform"_s, u"x"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'platform' is not key=glob"));
        run = cli.run({u"route"_s, u"add"_s, u"1"_s, u"a=b"_s, u"x#watch"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("#observe"));
        run = cli.run({u"route"_s, u"test"_s, u"novalue"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'novalue'"));
        QCOMPARE(cli.run({u"--json"_s, u"route"_s, u"list"_s}).json().array().size(), 0);
    }
};

QTEST_GUILESS_MAIN(CliRouteTest)
#include "test_cli_route.moc"
