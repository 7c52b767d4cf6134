// `arizukoctl grant` end to end through the real binary: seeds, add/list/rm,
// check exit codes, delegation refusals, membership, tools, JSON and usage errors.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class CliGrantTest : public QObject
{
    Q_OBJECT

private slots:
    void seededToolsAndChecks()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp/eng"_s}).exitCode, 0);

        // Every folder is born a member of role:member with the messaging tools.
        CliRun run = cli.run({u"--json"_s, u"grant"_s, u"tools"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray tools = run.json().array();
        QCOMPARE(tools.size(), 12);
        QVERIFY(tools.contains(u"mcp:send_file"_s));
        QVERIFY(!tools.contains(u"mcp:deploy"_s));

        run = cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:reply"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("allow: ") && run.out.contains("role:member"),
                 run.out.constData());
        run = cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.startsWith("deny: no grant allows"));

        run = cli.run({u"--json"_s, u"grant"_s, u"add"_s, u"corp"_s, u"admin"_s, u"corp/**"_s,
                       u"--grant-option"_s});
        QCOMPARE(run.exitCode, 0);
        const qint64 adminId = run.json().object().value(u"id"_s).toInteger();
        QVERIFY(run.json().object().value(u"grant_option"_s).toBool());
        run = cli.run(
            {u"grant"_s, u"add"_s, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/prod"_s, u"--deny"_s});
        QCOMPARE(run.exitCode, 0);
        run = cli.run({u"grant"_s, u"add"_s, u"corp/eng"_s, u"mcp:notify"_s, u"corp/**"_s,
                       u"--param"_s, u"jid=team:*"_s});
        QCOMPARE(run.exitCode, 0);

        // Grants travel through memberships, not the folder tree: corp/eng gets
        // corp's admin by joining it, and its own deny still wins.
        QCOMPARE(cli.run({u"grant"_s, u"join"_s, u"corp/eng"_s, u"corp"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/dev"_s})
                     .exitCode,
                 0);
        run = cli.run(
            {u"--json"_s, u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/prod"_s});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.json().object().value(u"grant"_s).toObject().value(u"effect"_s).toString(),
                 u"deny"_s);
        QCOMPARE(cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:notify"_s, u"x"_s,
                          u"--param"_s, u"jid=team:eng"_s})
                     .exitCode,
                 1); // scope x is outside corp/**
        QCOMPARE(cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:notify"_s, u"corp/a"_s,
                          u"--param"_s, u"jid=team:eng"_s})
                     .exitCode,
                 0);

        // A cycle is refused.
        run = cli.run({u"grant"_s, u"join"_s, u"corp"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("cycle"));
        run = cli.run({u"--json"_s, u"grant"_s, u"members"_s});
        QVERIFY(run.json().array().contains(
            QJsonObject{{u"child"_s, u"corp/eng"_s}, {u"parent"_s, u"corp"_s}}));

        // Listing what applies to corp/eng includes corp's admin through the join.
        run = cli.run({u"grant"_s, u"list"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("ID "));
        QVERIFY(run.out.contains("corp/**") && run.out.contains("mcp:send_voice"));

        // Revoking takes effect for the next process at once.
        QCOMPARE(cli.run({u"grant"_s, u"rm"_s, QString::number(adminId)}).exitCode, 0);
        QCOMPARE(cli.run({u"grant"_s, u"check"_s, u"corp/eng"_s, u"mcp:deploy"_s, u"corp/dev"_s})
                     .exitCode,
                 1);
        QCOMPARE(cli.run({u"--json"_s, u"audit"_s, u"--kind"_s, u"grant"_s}).json().array().size(),
                 5); // 3 adds, the join and the rm; checks and refusals write nothing
    }

    void delegationRefusals()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"grant"_s, u"add"_s, u"corp"_s, u"mcp:*"_s, u"corp/**"_s,
                          u"--grant-option"_s})
                     .exitCode,
                 0);
        CliRun run = cli.run({u"grant"_s, u"add"_s, u"corp/eng"_s, u"mcp:build"_s, u"corp/eng"_s,
                              u"--as"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("mcp:build"));
        run = cli.run(
            {u"grant"_s, u"add"_s, u"corp/eng"_s, u"admin"_s, u"corp/eng"_s, u"--as"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("WITH GRANT OPTION"));
        run = cli.run({u"grant"_s, u"add"_s, u"corp/eng"_s, u"mcp:x"_s, u"corp/eng"_s, u"--deny"_s,
                       u"--as"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("deny row"));
        run = cli.run(
            {u"grant"_s, u"add"_s, u"corp/*"_s, u"mcp:x"_s, u"corp/eng"_s, u"--as"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("wildcard principal"));
    }

    void usageErrorsNameTheArgument()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        CliRun run = cli.run({u"grant"_s, u"add"_s, u"corp"_s, u"admin"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("missing <scope>"));
        run = cli.run({u"grant"_s, u"rm"_s, u"seven"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'seven'"));
        run = cli.run({u"grant"_s, u"check"_s, u"a"_s, u"admin"_s, u"a"_s, u"--param"_s, u"x"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--param 'x'"));
        run = cli.run({u"grant"_s, u"frobnicate"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'frobnicate'"));
        // Invalid values are refusals (exit 1) naming the value and the accepted forms.
        run = cli.run({u"grant"_s, u"add"_s, u"corp"_s, u"admin"_s, u"corp/"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'corp/'") && run.err.contains("corp/**"));
        run = cli.run({u"grant"_s, u"add"_s, u"corp"_s, u"mcp:"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'mcp:'"));
        run = cli.run({u"grant"_s, u"rm"_s, u"4242"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("#4242"));
    }
};

QTEST_GUILESS_MAIN(CliGrantTest)
#include "test_cli_grant.moc"
