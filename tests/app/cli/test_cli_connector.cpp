// `arizukoctl connector` end to end through the real binary: list and show
// the built-in connectors, check a file with its file:line error, leave out
// a broken user file and keep the rest, and call the agent's way (the
// grants decide first, a missing secret is named). `grant add` warns about
// a shell:env grant.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

class CliConnectorTest : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &text)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

private slots:
    void listShowAndCheck()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        CliRun run = cli.run({QStringLiteral("connector"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("github_create_pull_request") &&
                     run.out.contains("ext:gitlab:issues:read"),
                 run.out.constData());
        run = cli.run({QStringLiteral("connector"), QStringLiteral("show"),
                       QStringLiteral("github_get_file")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("auth     bearer") && run.out.contains("GITHUB_TOKEN") &&
                     run.out.contains("GET /repos/{owner}/{repo}/contents/{path}"),
                 run.out.constData());

        const QString bad = dir.filePath(QStringLiteral("bad.toml"));
        write(bad, "[[ext]]\nservice = \"x\"\nbase_url = \"http://x.example\"\n");
        run = cli.run({QStringLiteral("connector"), QStringLiteral("check"), bad});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains((bad + QStringLiteral(":3: base_url 'http://x.example' must "
                                                        "be https"))
                                      .toUtf8()),
                 run.err.constData());
        run = cli.run({QStringLiteral("connector"), QStringLiteral("check"),
                       QStringLiteral(ARIZUKO_TEST_DEFINITIONS)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(": ok, 8 tools of testsvc,testbasic,testquery"),
                 run.out.constData());

        // A broken file in the data directory is left out, the rest load.
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data/connectors"))));
        QFile::copy(bad, dir.filePath(QStringLiteral("data/connectors/bad.toml")));
        run = cli.run({QStringLiteral("connector"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("warning: left out: ") && run.err.contains("bad.toml:3:"),
                 run.err.constData());
        QVERIFY(run.out.contains("github_get_issue"));
    }

    void callGoesTheAgentsWay()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        const QStringList call{QStringLiteral("connector"), QStringLiteral("call"),
                               QStringLiteral("corp"),      QStringLiteral("github_get_issue"),
                               QStringLiteral("--arg"),     QStringLiteral("owner=o"),
                               QStringLiteral("--arg"),     QStringLiteral("repo=r"),
                               QStringLiteral("--arg"),     QStringLiteral("number=1")};
        CliRun run = cli.run(call);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("refused by the grants of corp"), run.err.constData());
        QCOMPARE(cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp"),
                          QStringLiteral("ext:github:*:read"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        run = cli.run(call);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no secret GITHUB_TOKEN is set for corp or any folder above it"),
                 run.err.constData());
        run = cli.run({QStringLiteral("connector"), QStringLiteral("call"), QStringLiteral("corp"),
                       QStringLiteral("send_message")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no connector tool is named send_message"), run.err.constData());
        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--kind"),
                       QStringLiteral("connector.call")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().array().size(), 2);

        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp"),
                       QStringLiteral("shell:env:GITHUB_TOKEN"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("leaves the host's control") && run.err.contains("connector"),
                 run.err.constData());
    }
};

QTEST_GUILESS_MAIN(CliConnectorTest)
#include "test_cli_connector.moc"
