// `arizukoctl topic` end to end: session ids, fork with its parent recorded,
// rename keeping the session, refusals and usage errors.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

class CliTopicTest : public QObject
{
    Q_OBJECT

private slots:
    void addForkRenameList()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);

        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("topic"), QStringLiteral("add"),
                     QStringLiteral("corp"), QStringLiteral("main")});
        QCOMPARE(run.exitCode, 0);
        const QString session = run.json().object().value(QStringLiteral("session_id")).toString();
        QVERIFY(!QUuid::fromString(session).isNull());

        run = cli.run({QStringLiteral("--json"), QStringLiteral("topic"), QStringLiteral("fork"),
                       QStringLiteral("corp"), QStringLiteral("main")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject fork = run.json().object();
        QCOMPARE(fork.value(QStringLiteral("topic")).toString(), QStringLiteral("main-fork"));
        QCOMPARE(fork.value(QStringLiteral("parent_topic")).toString(), QStringLiteral("main"));
        QVERIFY(fork.value(QStringLiteral("session_id")).toString() != session);
        QVERIFY(!fork.value(QStringLiteral("forked_at")).toString().isEmpty());

        run = cli.run({QStringLiteral("topic"), QStringLiteral("fork"), QStringLiteral("corp"),
                       QStringLiteral("main"), QStringLiteral("experiment")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("forked from main"));

        run = cli.run({QStringLiteral("--json"), QStringLiteral("topic"), QStringLiteral("rename"),
                       QStringLiteral("corp"), QStringLiteral("main"), QStringLiteral("release")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("session_id")).toString(), session);

        run = cli.run({QStringLiteral("--json"), QStringLiteral("topic"), QStringLiteral("list"),
                       QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray topics = run.json().array();
        QCOMPARE(topics.size(), 3);
        for (const QJsonValue &topic : topics) {
            const QJsonObject object = topic.toObject();
            if (object.value(QStringLiteral("topic")).toString() != QLatin1String("release"))
                QCOMPARE(object.value(QStringLiteral("parent_topic")).toString(),
                         QStringLiteral("release"));
        }
        run = cli.run({QStringLiteral("topic"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.trimmed().split('\n').size(), 4);
    }

    void removeTakesTheTopicAndIsNamedWhenMissing()
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
        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("topic"), QStringLiteral("rm"),
                     QStringLiteral("corp"), QStringLiteral("main")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.json().object().value(QStringLiteral("removed")).toString(),
                 QStringLiteral("main"));
        run = cli.run({QStringLiteral("topic"), QStringLiteral("list"), QStringLiteral("corp")});
        QVERIFY2(!run.out.contains("main"), run.out.constData());
        run = cli.run({QStringLiteral("topic"), QStringLiteral("rm"), QStringLiteral("corp"),
                       QStringLiteral("main")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("'main'") && run.err.contains("does not exist"),
                 run.err.constData());
        run = cli.run({QStringLiteral("topic"), QStringLiteral("rm"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 2);
    }

    void refusalsAndUsageErrors()
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

        const struct
        {
            QStringList arguments;
            int exitCode;
            QByteArray named;
        } cases[] = {
            {{QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("corp"),
              QStringLiteral("main")},
             1,
             "'main'"},
            {{QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("ghost"),
              QStringLiteral("t")},
             1,
             "'ghost'"},
            {{QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("corp"),
              QStringLiteral("a b")},
             1,
             "'a b'"},
            {{QStringLiteral("topic"), QStringLiteral("fork"), QStringLiteral("corp"),
              QStringLiteral("nope")},
             1,
             "'nope'"},
            {{QStringLiteral("topic"), QStringLiteral("rename"), QStringLiteral("corp"),
              QStringLiteral("main"), QStringLiteral("x/y")},
             1,
             "'x/y'"},
            {{QStringLiteral("topic"), QStringLiteral("add"), QStringLiteral("corp")},
             2,
             "<topic>"},
            {{QStringLiteral("topic"), QStringLiteral("rename"), QStringLiteral("corp"),
              QStringLiteral("main")},
             2,
             "<new-name>"},
            {{QStringLiteral("topic"), QStringLiteral("list"), QStringLiteral("a"),
              QStringLiteral("b")},
             2,
             "'b'"},
            {{QStringLiteral("topic"), QStringLiteral("merge")}, 2, "'merge'"},
        };
        for (const auto &refusal : cases) {
            const CliRun run = cli.run(refusal.arguments);
            QCOMPARE(run.exitCode, refusal.exitCode);
            QVERIFY2(run.err.contains(refusal.named), run.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(CliTopicTest)
#include "test_cli_topic.moc"
