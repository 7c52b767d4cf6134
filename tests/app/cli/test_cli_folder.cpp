// `arizukoctl folder` end to end through the real binary: tables and JSON,
// homes on disk, refusals (exit 1) and usage errors (exit 2) naming the
// bad argument.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliFolderTest : public QObject
{
    Q_OBJECT

private slots:
    void addListRemove()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        const Cli cli(dataDir);

        CliRun run =
            cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp"),
                     QStringLiteral("--name"), QStringLiteral("Corp Inc")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("added folder corp"));
        QVERIFY(QFileInfo(dataDir + QStringLiteral("/groups/corp")).isDir());
        QCOMPARE(cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("add"),
                          QStringLiteral("corp/eng")})
                     .json()
                     .object()
                     .value(QStringLiteral("home"))
                     .toString(),
                 dataDir + QStringLiteral("/groups/corp/eng"));

        run = cli.run({QStringLiteral("folder"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("FOLDER"));
        QVERIFY(lines[1].startsWith("corp ") && lines[1].contains("Corp Inc"));
        QVERIFY(lines[2].startsWith("corp/eng "));

        run = cli.run({QStringLiteral("folder"), QStringLiteral("list"), QStringLiteral("--json")});
        const QJsonArray folders = run.json().array();
        QCOMPARE(folders.size(), 2);
        QCOMPARE(folders[1].toObject().value(QStringLiteral("folder")).toString(),
                 QStringLiteral("corp/eng"));

        run = cli.run({QStringLiteral("folder"), QStringLiteral("rm"), QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("'corp'") && run.err.contains("--recursive"),
                 run.err.constData());

        QFile notes(dataDir + QStringLiteral("/groups/corp/eng/notes.md"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("work");
        notes.close();
        run = cli.run({QStringLiteral("folder"), QStringLiteral("rm"), QStringLiteral("corp/eng")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("not empty"));

        run = cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("rm"),
                       QStringLiteral("corp"), QStringLiteral("--recursive")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("removed")).toArray().size(), 2);
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/groups/corp")));
        QCOMPARE(
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("list")})
                .json()
                .array()
                .size(),
            0);
    }

    void moveTakesTheSubtreeItsRowsSecretsAndHome()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        const Cli cli(dataDir);
        for (const char *folder : {"corp", "corp/eng", "corp/eng/sre", "x"})
            QCOMPARE(
                cli.run({QStringLiteral("folder"), QStringLiteral("add"), QLatin1String(folder)})
                    .exitCode,
                0);
        QCOMPARE(cli.run({QStringLiteral("topic"), QStringLiteral("add"),
                          QStringLiteral("corp/eng"), QStringLiteral("main")})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("allow"),
                          QStringLiteral("corp/eng/sre"), QStringLiteral("example.org")})
                     .exitCode,
                 0);
        QCOMPARE(cli.run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("TOKEN"),
                          QStringLiteral("--folder"), QStringLiteral("corp/eng")},
                         "value\n")
                     .exitCode,
                 0);
        QFile notes(dataDir + QStringLiteral("/groups/corp/eng/sre/notes.md"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("work");
        notes.close();

        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("move"),
                     QStringLiteral("corp/eng"), QStringLiteral("x/eng")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.json().object().value(QStringLiteral("moved")).toArray().size(), 2);
        QVERIFY(QFile::exists(dataDir + QStringLiteral("/groups/x/eng/sre/notes.md")));
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/groups/corp/eng")));
        run = cli.run({QStringLiteral("folder"), QStringLiteral("list")});
        QVERIFY(run.out.contains("x/eng/sre ") && !run.out.contains("corp/eng"));
        run = cli.run({QStringLiteral("topic"), QStringLiteral("list"), QStringLiteral("x/eng")});
        QVERIFY2(run.out.contains("main"), run.out.constData());
        run = cli.run(
            {QStringLiteral("network"), QStringLiteral("list"), QStringLiteral("x/eng/sre")});
        QVERIFY2(run.out.contains("example.org"), run.out.constData());
        run = cli.run({QStringLiteral("secret"), QStringLiteral("list")});
        QVERIFY2(run.out.contains("x/eng") && !run.out.contains("corp/eng"), run.out.constData());
        run = cli.run(
            {QStringLiteral("audit"), QStringLiteral("--kind"), QStringLiteral("folder.move")});
        QVERIFY2(run.out.contains("corp/eng"), run.out.constData());

        // Refusals exit 1 and say why; nothing moved.
        run = cli.run({QStringLiteral("folder"), QStringLiteral("move"), QStringLiteral("x"),
                       QStringLiteral("x/eng/y")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("inside it"), run.err.constData());
        run = cli.run({QStringLiteral("folder"), QStringLiteral("move"), QStringLiteral("x/eng"),
                       QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("already exists"), run.err.constData());
        run = cli.run({QStringLiteral("folder"), QStringLiteral("move"), QStringLiteral("x/eng")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(QFileInfo(dataDir + QStringLiteral("/groups/x/eng")).isDir());
    }

    void refusalsExitOneAndNameTheArgument()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        const struct
        {
            QStringList arguments;
            QByteArray named;
        } cases[] = {
            {{QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("a/../b")},
             "'a/../b'"},
            {{QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("share")}, "'share'"},
            {{QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("**")}, "'**'"},
            {{QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("missing/child")},
             "'missing'"},
            {{QStringLiteral("folder"), QStringLiteral("rm"), QStringLiteral("ghost")}, "'ghost'"},
        };
        for (const auto &refusal : cases) {
            const CliRun run = cli.run(refusal.arguments);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(refusal.named), run.err.constData());
            QVERIFY(run.out.isEmpty());
        }
    }

    void usageErrorsExitTwo()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        const struct
        {
            QStringList arguments;
            QByteArray named;
        } cases[] = {
            {{QStringLiteral("folder")}, "missing subcommand"},
            {{QStringLiteral("folder"), QStringLiteral("frob")}, "'frob'"},
            {{QStringLiteral("folder"), QStringLiteral("add")}, "<folder>"},
            {{QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("a"),
              QStringLiteral("b")},
             "'b'"},
            {{QStringLiteral("folder"), QStringLiteral("rm"), QStringLiteral("a"),
              QStringLiteral("--force")},
             "force"},
        };
        for (const auto &usage : cases) {
            const CliRun run = cli.run(usage.arguments);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(usage.named), run.err.constData());
        }
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("--help")}).exitCode, 0);
        QCOMPARE(
            cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("--help")})
                .exitCode,
            0);
    }

    void dataDirComesFromTheEnvironmentWhenNotGiven()
    {
        QTemporaryDir dir;
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("ARIZUKO_DATA_DIR"),
                           dir.filePath(QStringLiteral("from-env")));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("x")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("from-env/groups/x"))).isDir());

        environment.remove(QStringLiteral("ARIZUKO_DATA_DIR"));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg")));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("y")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("xdg/arizuko-desktop/groups/y"))).isDir());
    }

    void aDamagedDatabaseIsNamedAndKept()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(dataDir));
        QFile database(dataDir + QStringLiteral("/arizuko.db"));
        QVERIFY(database.open(QIODevice::WriteOnly));
        database.write(QByteArray(4096, 'z'));
        database.close();
        const CliRun run = Cli(dataDir).run({QStringLiteral("folder"), QStringLiteral("list")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QFile::encodeName(dataDir + QStringLiteral("/arizuko.db"))),
                 run.err.constData());
        QVERIFY(run.err.contains("damaged"));
        QVERIFY(database.open(QIODevice::ReadOnly));
        QCOMPARE(database.readAll(), QByteArray(4096, 'z'));
    }
};

QTEST_GUILESS_MAIN(CliFolderTest)
#include "test_cli_folder.moc"
