// `arizukoctl settings` end to end through the real binary: show with the
// source of each value, set, refusals that leave every saved value as it was,
// and the environment winning over a saved value.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

QJsonObject settingIn(const CliRun &run, const QString &key)
{
    for (const QJsonValue &row : run.json().object().value(u"settings"_s).toArray()) {
        if (row.toObject().value(u"key"_s).toString() == key)
            return row.toObject();
    }
    return {};
}

const QStringList settingVariables{u"ARIZUKO_LIBVIRT_URI"_s,    u"ARIZUKO_ACCELERATOR"_s,
                                   u"ARIZUKO_SUBNET_POOL"_s,    u"ARIZUKO_MAX_TURNS"_s,
                                   u"ARIZUKO_TURN_DEADLINE"_s,  u"ARIZUKO_MODEL_PROVIDER"_s,
                                   u"ARIZUKO_MODEL_URL"_s,      u"ARIZUKO_MODEL"_s};

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
        Cli cli = cleanCli(dir.filePath(u"data"_s));
        CliRun run = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(u"data_dir"_s).toString(), dir.filePath(u"data"_s));
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"value"_s).toString(), u"2"_s);
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"source"_s).toString(), u"default"_s);

        run = cli.run({u"settings"_s, u"set"_s, u"max-turns"_s, u"6"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(cli.run({u"settings"_s, u"set"_s, u"model-provider"_s, u"demo"_s}).exitCode, 0);
        run = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"value"_s).toString(), u"6"_s);
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"source"_s).toString(), u"saved"_s);
        QCOMPARE(settingIn(run, u"model-provider"_s).value(u"value"_s).toString(), u"demo"_s);

        cli.environment().insert(u"ARIZUKO_MAX_TURNS"_s, u"3"_s);
        run = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"value"_s).toString(), u"3"_s);
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"source"_s).toString(), u"environment"_s);
        QCOMPARE(settingIn(run, u"max-turns"_s).value(u"saved"_s).toString(), u"6"_s);
        run = cli.run({u"settings"_s, u"set"_s, u"max-turns"_s, u"7"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.contains("ARIZUKO_MAX_TURNS is set and wins"));

        // Back to the default with an empty value.
        QCOMPARE(cli.run({u"settings"_s, u"set"_s, u"model-provider"_s, QString()}).exitCode, 0);
        run = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        QCOMPARE(settingIn(run, u"model-provider"_s).value(u"source"_s).toString(), u"default"_s);
        QVERIFY(settingIn(run, u"model-provider"_s).value(u"saved"_s).isNull());

        // status reads the saved settings too: a saved URI that names no
        // libvirt is what it probes.
        QCOMPARE(cli.run({u"settings"_s, u"set"_s, u"libvirt-uri"_s, u"test:///nowhere/x"_s})
                     .exitCode,
                 0);
        run = cli.run({u"--json"_s, u"status"_s});
        QVERIFY2(run.out.contains("test:///nowhere/x"), run.out.constData());
    }

    void hostileValuesAreRefusedAndNothingChanges_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("reason");
        // NUL cannot be passed in argv at all; the engine test covers it.
        QTest::newRow("long") << u"model"_s << QString(5000, u'x') << QByteArray("5000 characters");
        QTest::newRow("control") << u"libvirt-uri"_s << u"qemu:///sys\u0007tem"_s
                                 << QByteArray("U+0007");
        QTest::newRow("rtl") << u"model"_s << u"claude\u202Egnp.exe"_s << QByteArray("U+202E");
        QTest::newRow("sql") << u"subnet-pool"_s << u"'; DROP TABLE settings; --"_s
                             << QByteArray("contains a space");
        QTest::newRow("pool") << u"subnet-pool"_s << u"10.0.0.0/8"_s
                              << QByteArray("the pool must be a /16 to a /30");
        QTest::newRow("limit") << u"max-turns"_s << u"99"_s << QByteArray("from 1 to 16");
        QTest::newRow("url") << u"model-url"_s << u"file:///etc/passwd"_s
                             << QByteArray("not an http(s) URL");
        QTest::newRow("uri") << u"libvirt-uri"_s << u"system"_s
                             << QByteArray("not a libvirt URI");
        QTest::newRow("key") << u"data-dir"_s << u"/tmp"_s << QByteArray("no setting 'data-dir'");
    }

    void hostileValuesAreRefusedAndNothingChanges()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QByteArray, reason);
        QTemporaryDir dir;
        Cli cli = cleanCli(dir.filePath(u"data"_s));
        QCOMPARE(cli.run({u"settings"_s, u"set"_s, u"max-turns"_s, u"4"_s}).exitCode, 0);
        const CliRun before = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        const CliRun run = cli.run({u"settings"_s, u"set"_s, key, value});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(reason), run.err.left(600).constData());
        QVERIFY(run.err.contains("nothing was saved"));
        QVERIFY(!run.err.contains("\u202E") && run.err.size() < 1000);
        const CliRun after = cli.run({u"--json"_s, u"settings"_s, u"show"_s});
        QCOMPARE(after.out, before.out);
        QCOMPARE(settingIn(after, u"max-turns"_s).value(u"value"_s).toString(), u"4"_s);
    }
};

QTEST_GUILESS_MAIN(CliSettingsTest)
#include "test_cli_settings.moc"
