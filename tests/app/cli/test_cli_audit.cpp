// `arizukoctl audit` end to end: what the other commands did, filtered, as a
// table and as JSON.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliAuditTest : public QObject
{
    Q_OBJECT

private slots:
    void showsWhatHappenedFiltered()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("corp"),
                          QStringLiteral("main")})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("TOKEN")},
                         "value")
                     .exitCode,
                 0);

        CliRun run = cli.run({QStringLiteral("--json"), QStringLiteral("audit")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray all = run.json().array();
        QCOMPARE(all.size(), 3);
        QCOMPARE(all[0].toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("folder.add"));
        QCOMPARE(all[0].toObject().value(QStringLiteral("actor")).toString(),
                 QStringLiteral("user:cli"));
        QCOMPARE(all[2].toObject().value(QStringLiteral("subject")).toString(),
                 QStringLiteral("TOKEN"));
        const qint64 firstId = all[0].toObject().value(QStringLiteral("id")).toInteger();

        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--kind"),
                       QStringLiteral("topic")});
        QCOMPARE(run.json().array().size(), 1);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"),
                       QStringLiteral("--subject"), QStringLiteral("corp")});
        QCOMPARE(run.json().array().size(), 2);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--after"),
                       QString::number(firstId)});
        QCOMPARE(run.json().array().size(), 2);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--limit"),
                       QStringLiteral("1")});
        QCOMPARE(run.json().array().first().toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("secret.set"));

        run = cli.run({QStringLiteral("audit")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("ID "));
        QVERIFY(run.out.contains("secret.set"));

        run = cli.run({QStringLiteral("audit"), QStringLiteral("--limit"), QStringLiteral("zero")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'zero'"));
        run = cli.run({QStringLiteral("audit"), QStringLiteral("extra")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("'extra'"));
    }
};

QTEST_GUILESS_MAIN(CliAuditTest)
#include "test_cli_audit.moc"
