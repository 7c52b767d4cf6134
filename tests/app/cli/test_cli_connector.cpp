// `arizukoctl connector` end to end through the real binary: list and show
// the built-in connectors, check a file with its file:line error, leave out
// a broken user file and keep the rest, and call the agent's way (the
// grants decide first, a missing secret is named; a granted call reaches a
// loopback HTTPS server and prints its answer, the key scrubbed). `grant
// add` warns about a shell:env grant.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QScopeGuard>
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
        QVERIFY2(run.out.contains(": ok, 9 tools of testsvc,testbasic,testquery"),
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

    // The engine's test origin (an environment variable of the engine, the
    // same the connector tests use) sends the call to a loopback server
    // whose CA only this test trusts; the binary needs nothing else.
    void grantedCallPrintsTheAnswer()
    {
        QTemporaryDir serverDir;
        QProcess server;
        server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        server.start(QStringLiteral("python3"),
                     {QStringLiteral(ARIZUKO_TEST_SERVER), serverDir.path()});
        const auto stopServer = qScopeGuard([&server] {
            server.kill();
            server.waitForFinished();
        });
        QVERIFY(server.waitForReadyRead(30000));
        const int port = server.readLine().trimmed().toInt();
        QVERIFY(port > 0);

        QTemporaryDir dir;
        Cli cli(dir.filePath(QStringLiteral("data")));
        cli.environment().insert(QStringLiteral("ARIZUKO_CONNECTOR_TEST_ORIGIN"),
                                 QStringLiteral("https://127.0.0.1:%1").arg(port));
        cli.environment().insert(QStringLiteral("ARIZUKO_CONNECTOR_TEST_CA"),
                                 serverDir.filePath(QStringLiteral("ca.pem")));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data/connectors"))));
        QVERIFY(QFile::copy(QStringLiteral(ARIZUKO_TEST_DEFINITIONS),
                            dir.filePath(QStringLiteral("data/connectors/test.toml"))));
        const QByteArray key = "cli-key-6d2f0a9c41";
        for (const auto &[arguments, input] :
             {std::pair{QStringList{QStringLiteral("folder"), QStringLiteral("add"),
                                    QStringLiteral("corp")},
                        QByteArray()},
              std::pair{QStringList{QStringLiteral("secret"), QStringLiteral("set"),
                                    QStringLiteral("TESTSVC_KEY"), QStringLiteral("--folder"),
                                    QStringLiteral("corp")},
                        QByteArray(key + '\n')},
              std::pair{QStringList{QStringLiteral("grant"), QStringLiteral("add"),
                                    QStringLiteral("corp"), QStringLiteral("ext:testsvc:**"),
                                    QStringLiteral("corp")},
                        QByteArray()}}) {
            const CliRun run = cli.run(arguments, input);
            QVERIFY2(run.exitCode == 0, run.err.constData());
        }

        CliRun run =
            cli.run({QStringLiteral("connector"), QStringLiteral("call"), QStringLiteral("corp"),
                     QStringLiteral("testsvc_get_item"), QStringLiteral("--arg"),
                     QStringLiteral("id=42"), QStringLiteral("--arg"), QStringLiteral("q=open")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.startsWith("GET /api/items/42 \u2192 HTTP 200\n"), run.out.constData());
        QVERIFY2(run.out.contains("\"target\": \"/api/items/42?q=open\""), run.out.constData());
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        QFile requests(serverDir.filePath(QStringLiteral("requests.jsonl")));
        QVERIFY(requests.open(QIODevice::ReadOnly));
        const QJsonObject request = QJsonDocument::fromJson(requests.readLine()).object();
        QCOMPARE(request.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
        QCOMPARE(request.value(QStringLiteral("target")).toString(),
                 QStringLiteral("/api/items/42?q=open"));
        QCOMPARE(request.value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("x-api-key"))
                     .toString()
                     .toUtf8(),
                 key);

        // The same for a script, with --json; an answer echoing the key
        // comes back scrubbed.
        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("connector"), QStringLiteral("call"),
                     QStringLiteral("corp"), QStringLiteral("testsvc_echo")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject answer = run.json().object();
        QCOMPARE(answer.value(QStringLiteral("is_error")), QJsonValue(false));
        const QString text = answer.value(QStringLiteral("text")).toString();
        QVERIFY2(text.startsWith(QStringLiteral("GET /api/echo-key \u2192 HTTP 200")) &&
                     text.contains(QStringLiteral("[secret TESTSVC_KEY]")),
                 qPrintable(text));
        QVERIFY2(!run.out.contains(key) && !run.err.contains(key), run.out.constData());

        // One audit row per call, as an agent's, by the turn "cli".
        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--kind"),
                       QStringLiteral("connector.call")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray rows = run.json().array();
        QCOMPARE(rows.size(), 2);
        for (const QJsonValue &row : rows) {
            const QJsonObject detail = row[QLatin1String("detail")].toObject();
            QCOMPARE(detail.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
            QCOMPARE(detail.value(QStringLiteral("http_status")).toInt(), 200);
            QCOMPARE(detail.value(QStringLiteral("turn")).toString(), QStringLiteral("cli"));
        }
        QVERIFY(!run.out.contains(key));
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
