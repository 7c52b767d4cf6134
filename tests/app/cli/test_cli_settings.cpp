// `arizukoctl settings` end to end through the real binary: show with the
// source of each value, set, refusals that leave every saved value as it was,
// and the environment winning over a saved value.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QJsonObject settingIn(const CliRun &run, const QString &key)
{
    for (const QJsonValue &row : run.json().object().value(QStringLiteral("settings")).toArray()) {
        if (row.toObject().value(QStringLiteral("key")).toString() == key)
            return row.toObject();
    }
    return {};
}

const QStringList settingVariables{
    QStringLiteral("ARIZUKO_LIBVIRT_URI"),   QStringLiteral("ARIZUKO_ACCELERATOR"),
    QStringLiteral("ARIZUKO_SUBNET_POOL"),   QStringLiteral("ARIZUKO_MAX_TURNS"),
    QStringLiteral("ARIZUKO_TURN_DEADLINE"), QStringLiteral("ARIZUKO_MODEL_PROVIDER"),
    QStringLiteral("ARIZUKO_MODEL_URL"),     QStringLiteral("ARIZUKO_MODEL")};

Cli cleanCli(const QString &dataDir)
{
    Cli cli(dataDir);
    for (const QString &variable : settingVariables)
        cli.environment().remove(variable);
    return cli;
}

} // namespace

class CliSettingsTest : public QObject
{
    Q_OBJECT

private slots:
    void showSetAndTheEnvironment()
    {
        QTemporaryDir dir;
        Cli cli = cleanCli(dir.filePath(QStringLiteral("data")));
        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("data_dir")).toString(),
                 dir.filePath(QStringLiteral("data")));
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("value")).toString(),
            QStringLiteral("2"));
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("source")).toString(),
            QStringLiteral("default"));

        run = cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                       QStringLiteral("max-turns"), QStringLiteral("6")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                          QStringLiteral("model-provider"), QStringLiteral("demo")})
                     .exitCode,
                 0);
        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("value")).toString(),
            QStringLiteral("6"));
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("source")).toString(),
            QStringLiteral("saved"));
        QCOMPARE(settingIn(run, QStringLiteral("model-provider"))
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("demo"));

        cli.environment().insert(QStringLiteral("ARIZUKO_MAX_TURNS"), QStringLiteral("3"));
        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("value")).toString(),
            QStringLiteral("3"));
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("source")).toString(),
            QStringLiteral("environment"));
        QCOMPARE(
            settingIn(run, QStringLiteral("max-turns")).value(QStringLiteral("saved")).toString(),
            QStringLiteral("6"));
        run = cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                       QStringLiteral("max-turns"), QStringLiteral("7")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.contains("ARIZUKO_MAX_TURNS is set and wins"));

        // Back to the default with an empty value.
        QCOMPARE(cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                          QStringLiteral("model-provider"), QString()})
                     .exitCode,
                 0);
        run =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        QCOMPARE(settingIn(run, QStringLiteral("model-provider"))
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("default"));
        QVERIFY(settingIn(run, QStringLiteral("model-provider"))
                    .value(QStringLiteral("saved"))
                    .isNull());

        // status reads the saved settings too: a saved URI that names no
        // libvirt is what it probes.
        QCOMPARE(cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                          QStringLiteral("libvirt-uri"), QStringLiteral("test:///nowhere/x")})
                     .exitCode,
                 0);
        run = cli.run({QStringLiteral("--json"), QStringLiteral("status")});
        QVERIFY2(run.out.contains("test:///nowhere/x"), run.out.constData());
    }

    void hostileValuesAreRefusedAndNothingChanges_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("reason");
        // NUL cannot be passed in argv at all; the engine test covers it.
        QTest::newRow("long") << QStringLiteral("model") << QString(5000, u'x')
                              << QByteArray("5000 characters");
        QTest::newRow("control") << QStringLiteral("libvirt-uri")
                                 << QStringLiteral("qemu:///sys\u0007tem") << QByteArray("U+0007");
        QTest::newRow("rtl") << QStringLiteral("model") << QStringLiteral("claude\u202Egnp.exe")
                             << QByteArray("U+202E");
        QTest::newRow("sql") << QStringLiteral("subnet-pool")
                             << QStringLiteral("'; DROP TABLE settings; --")
                             << QByteArray("contains a space");
        QTest::newRow("pool") << QStringLiteral("subnet-pool") << QStringLiteral("10.0.0.0/8")
                              << QByteArray("the pool must be a /16 to a /30");
        QTest::newRow("limit") << QStringLiteral("max-turns") << QStringLiteral("99")
                               << QByteArray("from 1 to 16");
        QTest::newRow("url") << QStringLiteral("model-url") << QStringLiteral("file:///etc/passwd")
                             << QByteArray("not an http(s) URL");
        QTest::newRow("uri") << QStringLiteral("libvirt-uri") << QStringLiteral("system")
                             << QByteArray("not a libvirt URI");
        QTest::newRow("key") << QStringLiteral("data-dir") << QStringLiteral("/tmp")
                             << QByteArray("no setting 'data-dir'");
    }

    void hostileValuesAreRefusedAndNothingChanges()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QByteArray, reason);
        QTemporaryDir dir;
        Cli cli = cleanCli(dir.filePath(QStringLiteral("data")));
        QCOMPARE(cli.run({QStringLiteral("settings"), QStringLiteral("set"),
                          QStringLiteral("max-turns"), QStringLiteral("4")})
                     .exitCode,
                 0);
        const CliRun before =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        const CliRun run = cli.run({QStringLiteral("settings"), QStringLiteral("set"), key, value});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(reason), run.err.left(600).constData());
        QVERIFY(run.err.contains("nothing was saved"));
        QVERIFY(!run.err.contains("\u202E") && run.err.size() < 1000);
        const CliRun after =
            cli.run({QStringLiteral("--json"), QStringLiteral("settings"), QStringLiteral("show")});
        QCOMPARE(after.out, before.out);
        QCOMPARE(
            settingIn(after, QStringLiteral("max-turns")).value(QStringLiteral("value")).toString(),
            QStringLiteral("4"));
    }
};

QTEST_GUILESS_MAIN(CliSettingsTest)
#include "test_cli_settings.moc"
