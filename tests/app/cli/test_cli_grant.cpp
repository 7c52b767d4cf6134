// `arizukoctl grant` end to end through the real binary: seeds, add/list/rm,
// check exit codes, delegation refusals, membership, tools, JSON and usage errors.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliGrantTest : public QObject
{
    Q_OBJECT

private slots:
    void seededToolsAndChecks()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        QCOMPARE(
            cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp/eng")})
                .exitCode,
            0);

        // Every folder is born a member of role:member with the messaging tools.
        CliRun run = cli.run({QStringLiteral("--json"), QStringLiteral("grant"),
                              QStringLiteral("tools"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray tools = run.json().array();
        QCOMPARE(tools.size(), 12);
        QVERIFY(tools.contains(QStringLiteral("mcp:send_file")));
        QVERIFY(!tools.contains(QStringLiteral("mcp:deploy")));

        run = cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                       QStringLiteral("mcp:reply"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("allow: ") && run.out.contains("role:member"),
                 run.out.constData());
        run = cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                       QStringLiteral("mcp:deploy"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.startsWith("deny: no grant allows"));

        run = cli.run({QStringLiteral("--json"), QStringLiteral("grant"), QStringLiteral("add"),
                       QStringLiteral("corp"), QStringLiteral("admin"), QStringLiteral("corp/**"),
                       QStringLiteral("--grant-option")});
        QCOMPARE(run.exitCode, 0);
        const qint64 adminId = run.json().object().value(QStringLiteral("id")).toInteger();
        QVERIFY(run.json().object().value(QStringLiteral("grant_option")).toBool());
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                       QStringLiteral("mcp:deploy"), QStringLiteral("corp/prod"),
                       QStringLiteral("--deny")});
        QCOMPARE(run.exitCode, 0);
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                       QStringLiteral("mcp:notify"), QStringLiteral("corp/**"),
                       QStringLiteral("--param"), QStringLiteral("jid=team:*")});
        QCOMPARE(run.exitCode, 0);

        // Grants travel through memberships, not the folder tree: corp/eng gets
        // corp's admin by joining it, and its own deny still wins.
        QCOMPARE(cli.run({QStringLiteral("grant"), QStringLiteral("join"),
                          QStringLiteral("corp/eng"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        QCOMPARE(
            cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                     QStringLiteral("mcp:deploy"), QStringLiteral("corp/dev")})
                .exitCode,
            0);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("grant"), QStringLiteral("check"),
                       QStringLiteral("corp/eng"), QStringLiteral("mcp:deploy"),
                       QStringLiteral("corp/prod")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.json()
                     .object()
                     .value(QStringLiteral("grant"))
                     .toObject()
                     .value(QStringLiteral("effect"))
                     .toString(),
                 QStringLiteral("deny"));
        QCOMPARE(
            cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                     QStringLiteral("mcp:notify"), QStringLiteral("x"), QStringLiteral("--param"),
                     QStringLiteral("jid=team:eng")})
                .exitCode,
            1); // scope x is outside corp/**
        QCOMPARE(
            cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                     QStringLiteral("mcp:notify"), QStringLiteral("corp/a"),
                     QStringLiteral("--param"), QStringLiteral("jid=team:eng")})
                .exitCode,
            0);

        // A cycle is refused.
        run = cli.run({QStringLiteral("grant"), QStringLiteral("join"), QStringLiteral("corp"),
                       QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("cycle"));
        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("grant"), QStringLiteral("members")});
        QVERIFY(run.json().array().contains(
            QJsonObject{{QStringLiteral("child"), QStringLiteral("corp/eng")},
                        {QStringLiteral("parent"), QStringLiteral("corp")}}));

        // Listing what applies to corp/eng includes corp's admin through the join.
        run =
            cli.run({QStringLiteral("grant"), QStringLiteral("list"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("ID "));
        QVERIFY(run.out.contains("corp/**") && run.out.contains("mcp:send_voice"));

        // Revoking takes effect for the next process at once.
        QCOMPARE(cli.run({QStringLiteral("grant"), QStringLiteral("rm"), QString::number(adminId)})
                     .exitCode,
                 0);
        QCOMPARE(
            cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("corp/eng"),
                     QStringLiteral("mcp:deploy"), QStringLiteral("corp/dev")})
                .exitCode,
            1);
        QCOMPARE(cli.run({QStringLiteral("--json"), QStringLiteral("audit"),
                          QStringLiteral("--kind"), QStringLiteral("grant")})
                     .json()
                     .array()
                     .size(),
                 5); // 3 adds, the join and the rm; checks and refusals write nothing
    }

    void delegationRefusals()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp"),
                          QStringLiteral("mcp:*"), QStringLiteral("corp/**"),
                          QStringLiteral("--grant-option")})
                     .exitCode,
                 0);
        CliRun run =
            cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                     QStringLiteral("mcp:build"), QStringLiteral("corp/eng"),
                     QStringLiteral("--as"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("mcp:build"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                       QStringLiteral("admin"), QStringLiteral("corp/eng"), QStringLiteral("--as"),
                       QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("WITH GRANT OPTION"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                       QStringLiteral("mcp:x"), QStringLiteral("corp/eng"),
                       QStringLiteral("--deny"), QStringLiteral("--as"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("deny row"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/*"),
                       QStringLiteral("mcp:x"), QStringLiteral("corp/eng"), QStringLiteral("--as"),
                       QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("wildcard principal"));
    }

    void usageErrorsNameTheArgument()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        CliRun run = cli.run({QStringLiteral("grant"), QStringLiteral("add"),
                              QStringLiteral("corp"), QStringLiteral("admin")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("missing <scope>"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("rm"), QStringLiteral("seven")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'seven'"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("check"), QStringLiteral("a"),
                       QStringLiteral("admin"), QStringLiteral("a"), QStringLiteral("--param"),
                       QStringLiteral("x")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--param 'x'"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("frobnicate")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'frobnicate'"));
        // Invalid values are refusals (exit 1) naming the value and the accepted forms.
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp"),
                       QStringLiteral("admin"), QStringLiteral("corp/")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'corp/'") && run.err.contains("corp/**"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp"),
                       QStringLiteral("mcp:"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'mcp:'"));
        run = cli.run({QStringLiteral("grant"), QStringLiteral("rm"), QStringLiteral("4242")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("#4242"));
    }
};

QTEST_GUILESS_MAIN(CliGrantTest)
#include "test_cli_grant.moc"
