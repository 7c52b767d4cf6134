// `arizukoctl network` end to end through the real binary: normalised rules,
// inheritance, resolve (incl. allow-all from the egress grant), test with the
// deciding rule and folder, removal, refusals with the accepted form.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliNetworkTest : public QObject
{
    Q_OBJECT

private slots:
    void rulesResolveAndTest()
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
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("allow"), QStringLiteral(""),
                          QStringLiteral("pypi.org")})
                     .exitCode,
                 0);
        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("allow"),
                     QStringLiteral("corp"), QStringLiteral("*.Bücher.de")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("target")).toString(),
                 QStringLiteral("xn--bcher-kva.de"));
        QVERIFY(run.json().object().value(QStringLiteral("created")).toBool());
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("allow"),
                          QStringLiteral("corp"), QStringLiteral("github.com")})
                     .exitCode,
                 0);
        run = cli.run({QStringLiteral("network"), QStringLiteral("allow"), QStringLiteral("corp"),
                       QStringLiteral("GITHUB.com.")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("already: "));
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("deny"),
                          QStringLiteral("corp/eng"), QStringLiteral("gist.github.com")})
                     .exitCode,
                 0);

        run = cli.run({QStringLiteral("--json"), QStringLiteral("network"),
                       QStringLiteral("resolve"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 0);
        QJsonObject resolved = run.json().object();
        QCOMPARE(resolved.value(QStringLiteral("allow")).toArray(),
                 (QJsonArray{QStringLiteral("pypi.org"), QStringLiteral("xn--bcher-kva.de"),
                             QStringLiteral("github.com")}));
        QCOMPARE(resolved.value(QStringLiteral("deny")).toArray(),
                 QJsonArray{QStringLiteral("gist.github.com")});
        QVERIFY(!resolved.value(QStringLiteral("allow_all")).toBool());

        run = cli.run(
            {QStringLiteral("network"), QStringLiteral("list"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.trimmed().split('\n').size(), 5); // header + 4 rules with origins
        QVERIFY(run.out.contains("''") && run.out.contains("corp/eng"));

        run = cli.run({QStringLiteral("network"), QStringLiteral("test"),
                       QStringLiteral("corp/eng"), QStringLiteral("api.github.com")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("allow github.com") && run.out.contains("folder 'corp'"),
                 run.out.constData());
        run = cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("test"),
                       QStringLiteral("corp/eng"), QStringLiteral("x.gist.github.com")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.json()
                     .object()
                     .value(QStringLiteral("rule"))
                     .toObject()
                     .value(QStringLiteral("folder"))
                     .toString(),
                 QStringLiteral("corp/eng"));
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("test"), QStringLiteral("corp"),
                          QStringLiteral("evilgithub.com")})
                     .exitCode,
                 1);

        // Allow-all comes only from the egress grant, and denies still win.
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("test"),
                          QStringLiteral("corp/eng"), QStringLiteral("example.net")})
                     .exitCode,
                 1);
        QCOMPARE(
            cli.run({QStringLiteral("grant"), QStringLiteral("add"), QStringLiteral("corp/eng"),
                     QStringLiteral("egress"), QStringLiteral("corp/eng")})
                .exitCode,
            0);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("network"),
                       QStringLiteral("resolve"), QStringLiteral("corp/eng")});
        QVERIFY(run.json().object().value(QStringLiteral("allow_all")).toBool());
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("test"),
                          QStringLiteral("corp/eng"), QStringLiteral("example.net")})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("test"),
                          QStringLiteral("corp/eng"), QStringLiteral("gist.github.com")})
                     .exitCode,
                 1);

        run = cli.run({QStringLiteral("network"), QStringLiteral("rm"), QStringLiteral("corp"),
                       QStringLiteral("*.github.com")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("removed allow github.com of corp"));
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("rm"), QStringLiteral("corp"),
                          QStringLiteral("github.com")})
                     .exitCode,
                 1);
        QCOMPARE(
            cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("list")})
                .json()
                .array()
                .size(),
            3);
    }

    // Rules by method and path: added, listed with their columns, resolved to
    // the proxy's --rule lines, one request tested, removed by their own
    // methods and path, and refused with the field that is wrong.
    void requestRules()
    {
        using namespace Qt::StringLiterals;
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"network"_s, u"allow"_s, u"corp"_s, u"github.com"_s}).exitCode, 0);
        CliRun run = cli.run({u"network"_s, u"deny"_s, u"corp"_s, u"github.com"_s, u"--method"_s,
                              u"post"_s, u"--path"_s, u"/**/git-receive-pack"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, "deny POST github.com /**/git-receive-pack for corp\n");
        run = cli.run({u"--json"_s, u"network"_s, u"allow"_s, u"corp"_s, u"api.test"_s,
                       u"--method"_s, u"GET,HEAD"_s, u"--path"_s, u"/repos/acme/**"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(u"methods"_s).toString(), u"GET,HEAD"_s);
        QCOMPARE(run.json().object().value(u"path"_s).toString(), u"/repos/acme/**"_s);

        run = cli.run({u"network"_s, u"list"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("METHODS") && run.out.contains("PATH") &&
                     run.out.contains("/**/git-receive-pack"),
                 run.out.constData());
        run = cli.run({u"--json"_s, u"network"_s, u"resolve"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(
            run.json().object().value(u"rules"_s).toArray(),
            (QJsonArray{u"deny POST github.com /**/git-receive-pack"_s,
                        u"allow GET,HEAD api.test /repos/acme/**"_s, u"allow * github.com /**"_s}));
        QCOMPARE(run.json().object().value(u"deny"_s).toArray(), QJsonArray{});

        run = cli.run({u"network"_s, u"test"_s, u"corp"_s, u"github.com"_s, u"--method"_s,
                       u"POST"_s, u"--path"_s, u"/acme/x.git/git-receive-pack"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.startsWith("deny POST github.com/acme/x.git/git-receive-pack: ") &&
                     run.out.contains("deny POST github.com /**/git-receive-pack"),
                 run.out.constData());
        run = cli.run({u"--json"_s, u"network"_s, u"test"_s, u"corp"_s, u"github.com"_s,
                       u"--method"_s, u"POST"_s, u"--path"_s, u"/acme/x.git/git-upload-pack"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.json().object().value(u"inspected"_s).toBool());
        QCOMPARE(run.json().object().value(u"rule"_s).toObject().value(u"target"_s).toString(),
                 u"github.com"_s);
        run = cli.run({u"network"_s, u"test"_s, u"corp"_s, u"api.test"_s, u"--method"_s,
                       u"DELETE"_s, u"--path"_s, u"/repos/acme/x"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("no-matching-rule"), run.out.constData());

        run =
            cli.run({u"network"_s, u"allow"_s, u"corp"_s, u"api.test"_s, u"--path"_s, u"repos"_s});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains("'repos' is not a path pattern"), run.err.constData());
        run = cli.run(
            {u"network"_s, u"allow"_s, u"corp"_s, u"api.test"_s, u"--method"_s, u"GET;rm"_s});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains("is not a list of methods"), run.err.constData());

        // rm without --method/--path removes the host rule only.
        QCOMPARE(cli.run({u"network"_s, u"rm"_s, u"corp"_s, u"github.com"_s}).exitCode, 0);
        run = cli.run({u"--json"_s, u"network"_s, u"list"_s, u"corp"_s});
        QCOMPARE(run.json().array().size(), 2);
        QCOMPARE(cli.run({u"network"_s, u"rm"_s, u"corp"_s, u"github.com"_s, u"--method"_s,
                          u"POST"_s, u"--path"_s, u"/**/git-receive-pack"_s})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({u"--json"_s, u"network"_s, u"list"_s, u"corp"_s}).json().array().size(),
                 1);
    }

    void refusals()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        const QList<std::pair<QString, QByteArray>> bad = {
            {QStringLiteral("https://github.com/org"), "did you mean 'github.com'"},
            {QStringLiteral("github.com:443"), "carries a port"},
            {QStringLiteral("github.com/path"), "contains a path"},
            {QStringLiteral("git hub.com"), "contains a space"},
            {QStringLiteral("*"), "egress grant"},
        };
        for (const auto &[host, hint] : bad) {
            const CliRun run = cli.run(
                {QStringLiteral("network"), QStringLiteral("allow"), QStringLiteral("corp"), host});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(hint) && run.err.contains("e.g. github.com"),
                     run.err.constData());
        }
        CliRun run = cli.run({QStringLiteral("network"), QStringLiteral("allow"),
                              QStringLiteral("nosuch"), QStringLiteral("x.org")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'nosuch'"));
        run = cli.run({QStringLiteral("network"), QStringLiteral("allow"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("missing <host>"));
        run =
            cli.run({QStringLiteral("network"), QStringLiteral("rm"), QStringLiteral("corp"),
                     QStringLiteral("x.org"), QStringLiteral("--allow"), QStringLiteral("--deny")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(
            cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("list")})
                .json()
                .array()
                .size(),
            0);
    }
};

QTEST_GUILESS_MAIN(CliNetworkTest)
#include "test_cli_network.moc"
