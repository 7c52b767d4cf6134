// `arizukoctl history status|prune` end to end: the disk use of a folder
// home's real history (du's figure) and the turns it keeps, and the
// retention policy (history-keep-turns from the environment) applied.

#include "cli_runner.h"
#include "history/home_history.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class CliHistoryTest : public QObject
{
    Q_OBJECT

private:
    static qint64 duBytes(const QString &path)
    {
        QProcess du;
        du.start(QStringLiteral("du"),
                 {QStringLiteral("-s"), QStringLiteral("--block-size=1"), path});
        return du.waitForFinished(60000)
                   ? du.readAllStandardOutput().split('\t').first().toLongLong()
                   : -1;
    }

    static QJsonObject row(const CliRun &run, const QString &folder)
    {
        for (const QJsonValue &value : run.json().array()) {
            if (value.toObject().value(QStringLiteral("folder")).toString() == folder)
                return value.toObject();
        }
        return {};
    }

private slots:
    void statusShowsTheDiskUseAndPruneKeepsThePolicy()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data"));
        Cli cli(data);
        for (const char *folder : {"corp", "lab"})
            QCOMPARE(
                cli.run({QStringLiteral("folder"), QStringLiteral("add"), QLatin1String(folder)})
                    .exitCode,
                0);
        const CliRun listed =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("list")});
        QString home;
        for (const QJsonValue &value : listed.json().array()) {
            if (value.toObject().value(QStringLiteral("folder")).toString() == u"corp")
                home = value.toObject().value(QStringLiteral("home")).toString();
        }
        const QString homeId = QFileInfo(home).fileName();
        {
            auto history = arizuko::history::HomeHistory::open(data, homeId, {});
            QVERIFY(history);
            for (int i = 0; i < 3; ++i) {
                const arizuko::history::TurnLabel label{QStringLiteral("turn-%1").arg(i),
                                                        QStringLiteral("main"),
                                                        QStringLiteral("write")};
                QVERIFY(history->recordBefore(label));
                QFile file(home + QStringLiteral("/f%1.txt").arg(i));
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write(QByteArray(100000, char('a' + i)));
                file.close();
                QVERIFY(history->recordAfter(label));
            }
        }
        const QString repository = arizuko::history::HomeHistory::repositoryPath(data, homeId);

        CliRun status = cli.run(
            {QStringLiteral("--json"), QStringLiteral("history"), QStringLiteral("status")});
        QCOMPARE(status.exitCode, 0);
        QCOMPARE(row(status, QStringLiteral("corp")).value(QStringLiteral("turns")).toInt(), 3);
        QCOMPARE(
            qint64(row(status, QStringLiteral("corp")).value(QStringLiteral("bytes")).toDouble()),
            duBytes(repository));
        QCOMPARE(row(status, QStringLiteral("lab")).value(QStringLiteral("turns")).toInt(), 0);
        status =
            cli.run({QStringLiteral("history"), QStringLiteral("status"), QStringLiteral("corp")});
        QVERIFY2(status.out.contains("3 turn(s) (keeps the newest 200 within 2048 MiB)"),
                 status.out.constData());

        cli.environment().insert(QStringLiteral("ARIZUKO_HISTORY_KEEP_TURNS"), QStringLiteral("1"));
        const CliRun pruned = cli.run({QStringLiteral("--json"), QStringLiteral("history"),
                                       QStringLiteral("prune"), QStringLiteral("corp")});
        QCOMPARE(pruned.exitCode, 0);
        const QJsonObject corp = row(pruned, QStringLiteral("corp"));
        QCOMPARE(corp.value(QStringLiteral("dropped_turns")).toInt(), 2);
        QCOMPARE(corp.value(QStringLiteral("turns")).toInt(), 1);
        QCOMPARE(qint64(corp.value(QStringLiteral("bytes")).toDouble()), duBytes(repository));
        QVERIFY(corp.value(QStringLiteral("bytes")).toDouble() <
                corp.value(QStringLiteral("bytes_before")).toDouble());

        const CliRun missing =
            cli.run({QStringLiteral("history"), QStringLiteral("status"), QStringLiteral("nope")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("there is no folder 'nope'"), missing.err.constData());
    }
};

QTEST_GUILESS_MAIN(CliHistoryTest)
#include "test_cli_history_use.moc"
