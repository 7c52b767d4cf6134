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

namespace {

// Where `folder list --json` says the folder's home is: tests need not know
// the layout (<data>/homes/<id>).
QString homeOf(const Cli &cli, const QString &folder)
{
    const QJsonArray folders =
        cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("list")})
            .json()
            .array();
    for (const QJsonValue &entry : folders) {
        if (entry.toObject().value(QStringLiteral("folder")).toString() == folder)
            return entry.toObject().value(QStringLiteral("home")).toString();
    }
    return {};
}

} // namespace

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
        const QString corpHome = homeOf(cli, QStringLiteral("corp"));
        QVERIFY(corpHome.startsWith(dataDir + QStringLiteral("/homes/")));
        QVERIFY(QFileInfo(corpHome).isDir());
        QVERIFY2(run.out.contains(corpHome.toUtf8()), run.out.constData());
        const QString engHome = cli.run({QStringLiteral("--json"), QStringLiteral("folder"),
                                         QStringLiteral("add"), QStringLiteral("corp/eng")})
                                    .json()
                                    .object()
                                    .value(QStringLiteral("home"))
                                    .toString();
        QCOMPARE(engHome, homeOf(cli, QStringLiteral("corp/eng")));
        // A child's home is not inside its parent's, which the parent's guest writes.
        QVERIFY(!engHome.startsWith(corpHome + QLatin1Char('/')));
        QCOMPARE(QFileInfo(engHome).path(), QFileInfo(corpHome).path());

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

        QFile notes(engHome + QStringLiteral("/notes.md"));
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
        QVERIFY(!QFileInfo::exists(corpHome));
        QVERIFY(!QFileInfo::exists(engHome));
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
        const QString sreHome = homeOf(cli, QStringLiteral("corp/eng/sre"));
        QFile notes(sreHome + QStringLiteral("/notes.md"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("work");
        notes.close();

        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("move"),
                     QStringLiteral("corp/eng"), QStringLiteral("x/eng")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.json().object().value(QStringLiteral("moved")).toArray().size(), 2);
        // The home stays where it was, under the folder's new name.
        QCOMPARE(homeOf(cli, QStringLiteral("x/eng/sre")), sreHome);
        QVERIFY(QFile::exists(sreHome + QStringLiteral("/notes.md")));
        QCOMPARE(homeOf(cli, QStringLiteral("corp/eng")), QString());
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
        QVERIFY(QFileInfo(homeOf(cli, QStringLiteral("x/eng"))).isDir());
    }

    // What a folder's turns may ask of the model: set, inherited down the
    // tree, shown as JSON, put back to the parent's with inherit.
    void gatewaySettingsAreSetAndInherited()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        for (const char *folder : {"corp", "corp/eng"})
            QCOMPARE(
                cli.run({QStringLiteral("folder"), QStringLiteral("add"), QLatin1String(folder)})
                    .exitCode,
                0);
        const auto show = [&cli](const QString &folder) {
            return cli
                .run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("gateway"),
                      folder})
                .json()
                .object();
        };
        QCOMPARE(show(QStringLiteral("corp/eng")).value(QStringLiteral("models")).toString(),
                 QStringLiteral("default"));
        QCOMPARE(show(QStringLiteral("corp/eng")).value(QStringLiteral("provider_web_search")),
                 QJsonValue(false));

        CliRun run = cli.run({QStringLiteral("folder"), QStringLiteral("gateway"),
                              QStringLiteral("corp"), QStringLiteral("--models"),
                              QStringLiteral("claude-haiku-4-5, claude-sonnet-4*"),
                              QStringLiteral("--provider-web-search"), QStringLiteral("on")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("models: claude-haiku-4-5, claude-sonnet-4*"),
                 run.out.constData());
        QVERIFY2(run.out.contains("provider web search: on"), run.out.constData());
        const QJsonObject inherited = show(QStringLiteral("corp/eng"));
        QCOMPARE(
            inherited.value(QStringLiteral("models")).toArray(),
            QJsonArray({QStringLiteral("claude-haiku-4-5"), QStringLiteral("claude-sonnet-4*")}));
        QCOMPARE(inherited.value(QStringLiteral("provider_web_search")), QJsonValue(true));

        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("gateway"),
                          QStringLiteral("corp/eng"), QStringLiteral("--provider-web-search"),
                          QStringLiteral("off")})
                     .exitCode,
                 0);
        QCOMPARE(show(QStringLiteral("corp/eng")).value(QStringLiteral("provider_web_search")),
                 QJsonValue(false));
        QCOMPARE(
            cli.run({QStringLiteral("folder"), QStringLiteral("gateway"), QStringLiteral("corp"),
                     QStringLiteral("--models"), QStringLiteral("inherit")})
                .exitCode,
            0);
        QCOMPARE(show(QStringLiteral("corp/eng")).value(QStringLiteral("models")).toString(),
                 QStringLiteral("default"));

        run = cli.run({QStringLiteral("folder"), QStringLiteral("gateway"), QStringLiteral("corp"),
                       QStringLiteral("--provider-web-search"), QStringLiteral("maybe")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("maybe"), run.err.constData());
        run =
            cli.run({QStringLiteral("folder"), QStringLiteral("gateway"), QStringLiteral("nope")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("nope"), run.err.constData());
        // Audited.
        run = cli.run({QStringLiteral("audit"), QStringLiteral("--kind"),
                       QStringLiteral("folder.model-settings")});
        QVERIFY2(run.out.contains("folder.model-settings"), run.out.constData());
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
        QCOMPARE(QDir(dir.filePath(QStringLiteral("from-env/homes")))
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                     .size(),
                 1);

        environment.remove(QStringLiteral("ARIZUKO_DATA_DIR"));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg")));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("y")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QDir(dir.filePath(QStringLiteral("xdg/arizuko-desktop/homes")))
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                     .size(),
                 1);
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
