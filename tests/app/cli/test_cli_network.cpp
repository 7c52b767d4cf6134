// `arizukoctl network` end to end through the real binary: normalised rules,
// inheritance, resolve (incl. allow-all from the egress grant), test with the
// deciding rule and folder, removal, refusals with the accepted form.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class CliNetworkTest : public QObject
{
    Q_OBJECT

private slots:
    void rulesResolveAndTest()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp/eng"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"network"_s, u"allow"_s, u""_s, u"pypi.org"_s}).exitCode, 0);
        CliRun run = cli.run({u"--json"_s, u"network"_s, u"allow"_s, u"corp"_s, u"*.Bücher.de"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(u"target"_s).toString(), u"xn--bcher-kva.de"_s);
        QVERIFY(run.json().object().value(u"created"_s).toBool());
        QCOMPARE(cli.run({u"network"_s, u"allow"_s, u"corp"_s, u"github.com"_s}).exitCode, 0);
        run = cli.run({u"network"_s, u"allow"_s, u"corp"_s, u"GITHUB.com."_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("already: "));
        QCOMPARE(cli.run({u"network"_s, u"deny"_s, u"corp/eng"_s, u"gist.github.com"_s}).exitCode,
                 0);

        run = cli.run({u"--json"_s, u"network"_s, u"resolve"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        QJsonObject resolved = run.json().object();
        QCOMPARE(resolved.value(u"allow"_s).toArray(),
                 (QJsonArray{u"pypi.org"_s, u"xn--bcher-kva.de"_s, u"github.com"_s}));
        QCOMPARE(resolved.value(u"deny"_s).toArray(), QJsonArray{u"gist.github.com"_s});
        QVERIFY(!resolved.value(u"allow_all"_s).toBool());

        run = cli.run({u"network"_s, u"list"_s, u"corp/eng"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.trimmed().split('\n').size(), 5); // header + 4 rules with origins
        QVERIFY(run.out.contains("''") && run.out.contains("corp/eng"));

        run = cli.run({u"network"_s, u"test"_s, u"corp/eng"_s, u"api.github.com"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("allow github.com") && run.out.contains("folder 'corp'"),
                 run.out.constData());
        run =
            cli.run({u"--json"_s, u"network"_s, u"test"_s, u"corp/eng"_s, u"x.gist.github.com"_s});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.json().object().value(u"rule"_s).toObject().value(u"folder"_s).toString(),
                 u"corp/eng"_s);
        QCOMPARE(cli.run({u"network"_s, u"test"_s, u"corp"_s, u"evilgithub.com"_s}).exitCode, 1);

        // Allow-all comes only from the egress grant, and denies still win.
        QCOMPARE(cli.run({u"network"_s, u"test"_s, u"corp/eng"_s, u"example.net"_s}).exitCode, 1);
        QCOMPARE(
            cli.run({u"grant"_s, u"add"_s, u"corp/eng"_s, u"egress"_s, u"corp/eng"_s}).exitCode, 0);
        run = cli.run({u"--json"_s, u"network"_s, u"resolve"_s, u"corp/eng"_s});
        QVERIFY(run.json().object().value(u"allow_all"_s).toBool());
        QCOMPARE(cli.run({u"network"_s, u"test"_s, u"corp/eng"_s, u"example.net"_s}).exitCode, 0);
        QCOMPARE(cli.run({u"network"_s, u"test"_s, u"corp/eng"_s, u"gist.github.com"_s}).exitCode,
                 1);

        run = cli.run({u"network"_s, u"rm"_s, u"corp"_s, u"*.github.com"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("removed allow github.com of corp"));
        QCOMPARE(cli.run({u"network"_s, u"rm"_s, u"corp"_s, u"github.com"_s}).exitCode, 1);
        QCOMPARE(cli.run({u"--json"_s, u"network"_s, u"list"_s}).json().array().size(), 3);
    }

    void refusals()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"folder"_s, u"add"_s, u"corp"_s}).exitCode, 0);
        const QList<std::pair<QString, QByteArray>> bad = {
            {u"https://github.com/org"_s, "did you mean 'github.com'"},
            {u"github.com:443"_s, "carries a port"},
            {u"github.com/path"_s, "contains a path"},
            {u"git hub.com"_s, "contains a space"},
            {u"*"_s, "egress grant"},
        };
        for (const auto &[host, hint] : bad) {
            const CliRun run = cli.run({u"network"_s, u"allow"_s, u"corp"_s, host});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(hint) && run.err.contains("e.g. github.com"),
                     run.err.constData());
        }
        CliRun run = cli.run({u"network"_s, u"allow"_s, u"nosuch"_s, u"x.org"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("'nosuch'"));
        run = cli.run({u"network"_s, u"allow"_s, u"corp"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("missing <host>"));
        run = cli.run({u"network"_s, u"rm"_s, u"corp"_s, u"x.org"_s, u"--allow"_s, u"--deny"_s});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(cli.run({u"--json"_s, u"network"_s, u"list"_s}).json().array().size(), 0);
    }
};

QTEST_GUILESS_MAIN(CliNetworkTest)
#include "test_cli_network.moc"
