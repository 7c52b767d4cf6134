// `arizukoctl secret` end to end: the value from stdin only, never echoed;
// which store holds the master key; rotation; and a scan of everything the
// CLI printed, the database, its WAL and the audit log for the plaintext and
// the master key.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The raw master keys and their encodings, from the key file.
QList<QByteArray> masterKeyForms(const QString &keyFile)
{
    QList<QByteArray> forms;
    for (const QByteArray &line : readAll(keyFile).split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() == 3 && fields[0] == "key") {
            const QByteArray key = QByteArray::fromBase64(fields[2]);
            forms << fields[2] << key << key.toHex();
        }
    }
    return forms;
}

} // namespace

class CliSecretTest : public QObject
{
    Q_OBJECT

private slots:
    void setListRemoveRotateWithoutEverShowingAValue()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath(QStringLiteral("data"));
        const Cli cli(dataDir);
        const QByteArray value = "sk-CLI-CANARY-7c2e91d04b";
        QList<CliRun> runs;
        const auto run = [&](const QStringList &arguments, const QByteArray &input = {}) {
            runs << cli.run(arguments, input);
            return runs.last();
        };

        QCOMPARE(
            run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")}).exitCode,
            0);
        CliRun result =
            run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("API_TOKEN")},
                value + "\n");
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("key file"), result.out.constData());
        result =
            run({QStringLiteral("--json"), QStringLiteral("secret"), QStringLiteral("set"),
                 QStringLiteral("API_TOKEN"), QStringLiteral("--folder"), QStringLiteral("corp")},
                value);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.json().object().value(QStringLiteral("key_store")).toString(),
                 QStringLiteral("file"));

        result = run({QStringLiteral("--json"), QStringLiteral("secret"), QStringLiteral("list")});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject listed = result.json().object();
        QCOMPARE(listed.value(QStringLiteral("key_store"))
                     .toObject()
                     .value(QStringLiteral("kind"))
                     .toString(),
                 QStringLiteral("file"));
        QCOMPARE(listed.value(QStringLiteral("secrets")).toArray().size(), 2);
        result = run({QStringLiteral("secret"), QStringLiteral("list")});
        QVERIFY(result.out.contains("(every folder)"));
        QVERIFY(result.out.contains("master key: key file " + QFile::encodeName(dataDir)));

        // The value as an argument is refused, and not repeated back.
        result = run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("OTHER"),
                      QString::fromLatin1(value)});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.err.contains("never taken from the command line"));
        result = run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("OTHER"),
                      QStringLiteral("--value=") + QString::fromLatin1(value)});
        QCOMPARE(result.exitCode, 2);
        result =
            run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("EMPTY")}, "");
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains("'EMPTY'"));
        result = run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("bad-name")},
                     value);
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains("'bad-name'"));
        result = run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("X"),
                      QStringLiteral("--folder"), QStringLiteral("ghost")},
                     value);
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains("'ghost'"));

        result =
            run({QStringLiteral("--json"), QStringLiteral("secret"), QStringLiteral("rotate-key")});
        QCOMPARE(result.exitCode, 0);
        const QString newKey = result.json().object().value(QStringLiteral("key_id")).toString();
        QCOMPARE(
            run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("AFTER")}, value)
                .exitCode,
            0);
        result = run({QStringLiteral("--json"), QStringLiteral("secret"), QStringLiteral("list")});
        const QJsonArray secrets =
            result.json().object().value(QStringLiteral("secrets")).toArray();
        QCOMPARE(secrets.size(), 3);
        QCOMPARE(secrets[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("AFTER"));
        QCOMPARE(secrets[0].toObject().value(QStringLiteral("key_id")).toString(), newKey);
        QVERIFY(secrets[1].toObject().value(QStringLiteral("key_id")).toString() != newKey);

        QCOMPARE(
            run({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("AFTER")}).exitCode,
            0);
        result = run({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("AFTER")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains("'AFTER'"));
        result = run({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--kind"),
                      QStringLiteral("secret")});
        QCOMPARE(result.json().array().size(), 5);

        // Nothing the CLI printed, nor the files it wrote, holds the value
        // or the master key.
        const QString keyFile = dataDir + QStringLiteral("/master.key");
        QCOMPARE(QFile::permissions(keyFile) & 0x0077, QFileDevice::Permissions());
        QList<QByteArray> needles = masterKeyForms(keyFile);
        QCOMPARE(needles.size(), 6);
        needles << value << value.toBase64() << value.toHex();
        for (const CliRun &done : std::as_const(runs)) {
            for (const QByteArray &needle : std::as_const(needles)) {
                QVERIFY2(!done.out.contains(needle), done.out.constData());
                QVERIFY2(!done.err.contains(needle), done.err.constData());
            }
        }
        const QString database = dataDir + QStringLiteral("/arizuko.db");
        for (const QString &path :
             {database, database + QStringLiteral("-wal"), database + QStringLiteral("-shm")}) {
            const QByteArray content = readAll(path);
            for (const QByteArray &needle : std::as_const(needles))
                QVERIFY2(!content.contains(needle), qPrintable(path));
        }
        QVERIFY(readAll(database).contains("API_TOKEN"));
    }

    void bindListUnbind()
    {
        QTemporaryDir dir;
        const Cli cli(dir.filePath(QStringLiteral("data")));
        const auto args = [](const char *line) { return QString::fromLatin1(line).split(u' '); };
        QCOMPARE(cli.run(args("folder add corp")).exitCode, 0);
        QCOMPARE(cli.run(args("secret set GITHUB_TOKEN --folder corp"), "ghp-CANARY").exitCode, 0);
        QCOMPARE(cli.run(args("secret set GIT_PASSWORD"), "pw-CANARY").exitCode, 0);

        CliRun result = cli.run({QStringLiteral("secret"), QStringLiteral("bind"),
                                 QStringLiteral("GITHUB_TOKEN"), QStringLiteral("--folder"),
                                 QStringLiteral("corp"), QStringLiteral("--host"),
                                 QStringLiteral("API.github.com"), QStringLiteral("--header"),
                                 QStringLiteral("Authorization: Bearer {}")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("api.github.com (Authorization: Bearer {})"),
                 result.out.constData());
        QCOMPARE(cli.run(args("secret bind GIT_PASSWORD --host git.example.test --host "
                              "*.example.org --basic"))
                     .exitCode,
                 0);
        // Neither or both of --header and --basic: a usage error.
        result = cli.run(args("secret bind GIT_PASSWORD --host x.test"));
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("--header"), result.err.constData());
        result = cli.run({QStringLiteral("secret"), QStringLiteral("bind"),
                          QStringLiteral("GIT_PASSWORD"), QStringLiteral("--host"),
                          QStringLiteral("x.test"), QStringLiteral("--basic"),
                          QStringLiteral("--header"), QStringLiteral("X-Key: {}")});
        QCOMPARE(result.exitCode, 2);
        result = cli.run({QStringLiteral("secret"), QStringLiteral("bind"),
                          QStringLiteral("GIT_PASSWORD"), QStringLiteral("--host"),
                          QStringLiteral("x.test"), QStringLiteral("--header"),
                          QStringLiteral("X-Key: nothing")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("exactly once"), result.err.constData());
        result = cli.run(args("secret bind GITHUB_TOKEN --host x.test --basic"));
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("no secret 'GITHUB_TOKEN' for every folder"),
                 result.err.constData());

        result = cli.run(args("--json secret list"));
        const QJsonArray secrets =
            result.json().object().value(QStringLiteral("secrets")).toArray();
        QCOMPARE(secrets.size(), 2);
        QCOMPARE(secrets[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("GIT_PASSWORD"));
        const QJsonObject basic = secrets[0].toObject().value(QStringLiteral("binding")).toObject();
        QVERIFY(basic.value(QStringLiteral("basic")).toBool());
        QCOMPARE(basic.value(QStringLiteral("hosts")).toArray(),
                 QJsonArray({QStringLiteral("git.example.test"), QStringLiteral("example.org")}));
        const QJsonObject header =
            secrets[1].toObject().value(QStringLiteral("binding")).toObject();
        QCOMPARE(header.value(QStringLiteral("header")).toString(),
                 QStringLiteral("Authorization"));
        QCOMPARE(header.value(QStringLiteral("template")).toString(), QStringLiteral("Bearer {}"));
        result = cli.run(args("secret list"));
        QVERIFY2(result.out.contains("BOUND TO"), result.out.constData());
        QVERIFY(!result.out.contains("CANARY") && !result.err.contains("CANARY"));

        QCOMPARE(cli.run(args("secret unbind GITHUB_TOKEN --folder corp")).exitCode, 0);
        result = cli.run(args("secret unbind GITHUB_TOKEN --folder corp"));
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("not bound"), result.err.constData());
        // Removing the secret takes its binding along.
        QCOMPARE(cli.run(args("secret rm GIT_PASSWORD")).exitCode, 0);
        result = cli.run(args("--json secret list"));
        const QJsonArray left = result.json().object().value(QStringLiteral("secrets")).toArray();
        QCOMPARE(left.size(), 1);
        QVERIFY(!left[0].toObject().contains(QStringLiteral("binding")));
        result = cli.run(args("--json audit --kind secret"));
        QStringList kinds;
        for (const QJsonValue &row : result.json().array())
            kinds << row.toObject().value(QStringLiteral("kind")).toString();
        QCOMPARE(kinds.count(QStringLiteral("secret.bind")), 2);
        QCOMPARE(kinds.count(QStringLiteral("secret.unbind")), 1);
    }
};

QTEST_GUILESS_MAIN(CliSecretTest)
#include "test_cli_secret.moc"
