// arizukoctl network log and network retention on a store whose ledger the
// test writes with the engine's ledger library: the filters, the three
// formats (JSON Lines checked against docs/egress-ledger.schema.json),
// --limit and --follow, and the retention setting.

#include "cli_runner.h"
#include "json_schema_check.h"
#include "ledger/ledger.h"
#include "store/store.h"
#include "store/timestamp.h"

#include <QFile>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

const QString turnA = QStringLiteral("aaaaaaaa-0000-4000-8000-000000000036");
const QString turnB = QStringLiteral("bbbbbbbb-0000-4000-8000-000000000036");

ledger::LedgerWrite row(qint64 seq, const QString &turn, const QString &folder, const QString &host,
                        bool allowed)
{
    ledger::LedgerEntry entry;
    entry.time = store::nowTimestamp();
    entry.turn = turn;
    entry.eventSeq = seq;
    entry.folder = folder;
    entry.topic = QStringLiteral("main");
    entry.client = QStringLiteral("10.213.0.2");
    entry.source = QStringLiteral("proxy");
    entry.method = QStringLiteral("CONNECT");
    entry.host = host;
    entry.port = 443;
    entry.decision = allowed ? QStringLiteral("allow") : QStringLiteral("deny");
    entry.reason = allowed ? QStringLiteral("allowed") : QStringLiteral("host-denied");
    entry.ruleId = seq;
    entry.ruleText = (allowed ? QStringLiteral("allow ") : QStringLiteral("deny ")) + host;
    entry.ruleFolder = QString();
    entry.status = allowed ? 200 : 403;
    return {ledger::LedgerWrite::Kind::Insert, entry};
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n'))
        if (!line.isEmpty())
            lines << QJsonDocument::fromJson(line).object();
    return lines;
}

QStringList hosts(const QList<QJsonObject> &lines)
{
    QStringList found;
    for (const QJsonObject &line : lines)
        found << line.value(QLatin1String("host")).toString();
    return found;
}

} // namespace

class TestCliNetworkLog final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    std::unique_ptr<store::Store> m_store;

    void write(const QList<ledger::LedgerWrite> &writes)
    {
        const Result<void> written = ledger::Ledger(*m_store).write(writes);
        if (!written)
            qFatal("%s", qPrintable(written.error().message));
    }

private slots:
    void initTestCase()
    {
        auto opened = store::Store::open(m_data.path());
        QVERIFY(opened);
        m_store = std::move(*opened);
        QSqlQuery query(m_store->database());
        QVERIFY(query.exec(QStringLiteral("INSERT INTO groups (folder, created_at) VALUES ('demo', "
                                          "'2026-12-01T00:00:00.000Z')")));
        QSqlQuery turn(m_store->database());
        turn.prepare(QStringLiteral(
            "INSERT INTO turns (id, name, group_folder, topic, agent, prompt, state, queued_at) "
            "VALUES (?, 'az-bbbbbbbb', 'demo', 'main', 'command', '', 'done', ?)"));
        turn.addBindValue(turnB);
        turn.addBindValue(store::nowTimestamp());
        QVERIFY(turn.exec());
        write({row(1, turnA, QStringLiteral("other"), QStringLiteral("a.example"), true),
               row(2, turnB, QStringLiteral("demo"), QStringLiteral("b.example"), true),
               row(3, turnB, QStringLiteral("demo"), QStringLiteral("c.example"), false),
               row(4, turnB, QStringLiteral("demo"), QStringLiteral("d.example"), true)});
    }

    void jsonLinesFilterAndMeetTheSchema()
    {
        const Cli cli(m_data.path());
        QFile file(QStringLiteral(LEDGER_SCHEMA));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject schema = QJsonDocument::fromJson(file.readAll()).object();

        const CliRun all = cli.run({QStringLiteral("network"), QStringLiteral("log"),
                                    QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(all.exitCode, 0);
        const QList<QJsonObject> lines = jsonLines(all.out);
        QCOMPARE(hosts(lines),
                 QStringList({QStringLiteral("a.example"), QStringLiteral("b.example"),
                              QStringLiteral("c.example"), QStringLiteral("d.example")}));
        for (const QJsonObject &line : lines) {
            const QStringList wrong = schemaViolations(line, schema);
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
        }

        const auto filtered = [&cli](const QStringList &options) {
            const CliRun run =
                cli.run(QStringList{QStringLiteral("--json"), QStringLiteral("network"),
                                    QStringLiteral("log")} +
                        options);
            if (run.exitCode != 0)
                qWarning("%s", run.err.constData());
            return hosts(jsonLines(run.out));
        };
        QCOMPARE(filtered({QStringLiteral("--folder"), QStringLiteral("demo")}),
                 QStringList({QStringLiteral("b.example"), QStringLiteral("c.example"),
                              QStringLiteral("d.example")}));
        QCOMPARE(filtered({QStringLiteral("--decision"), QStringLiteral("deny")}),
                 QStringList({QStringLiteral("c.example")}));
        QCOMPARE(filtered({QStringLiteral("--turn"), QStringLiteral("az-bbbbbbbb"),
                           QStringLiteral("--decision"), QStringLiteral("allow")}),
                 QStringList({QStringLiteral("b.example"), QStringLiteral("d.example")}));
        QCOMPARE(filtered({QStringLiteral("--limit"), QStringLiteral("2")}),
                 QStringList({QStringLiteral("c.example"), QStringLiteral("d.example")}));
        QCOMPARE(filtered({QStringLiteral("--since"), QStringLiteral("1h")}).size(), 4);
        QCOMPARE(filtered({QStringLiteral("--since"), QStringLiteral("2099-01-01T00:00:00Z")}),
                 QStringList());
    }

    void ocsfAndTable()
    {
        const Cli cli(m_data.path());
        const CliRun ocsf =
            cli.run({QStringLiteral("network"), QStringLiteral("log"), QStringLiteral("--format"),
                     QStringLiteral("ocsf"), QStringLiteral("--decision"), QStringLiteral("deny")});
        QCOMPARE(ocsf.exitCode, 0);
        const QList<QJsonObject> events = jsonLines(ocsf.out);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().value(QLatin1String("class_uid")).toInt(), 4001);
        QCOMPARE(
            events.first()[QLatin1String("dst_endpoint")][QLatin1String("hostname")].toString(),
            QStringLiteral("c.example"));
        QCOMPARE(events.first()[QLatin1String("firewall_rule")][QLatin1String("name")].toString(),
                 QStringLiteral("deny c.example"));

        const CliRun table = cli.run({QStringLiteral("network"), QStringLiteral("log"),
                                      QStringLiteral("--folder"), QStringLiteral("demo")});
        QCOMPARE(table.exitCode, 0);
        const QStringList tableLines =
            QString::fromUtf8(table.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(tableLines.size(), 4);
        QVERIFY(tableLines.first().startsWith(QStringLiteral("TIME")));
        QVERIFY(tableLines.at(2).contains(QStringLiteral("c.example:443")));
        QVERIFY(tableLines.at(2).contains(QStringLiteral("deny c.example ('')")));
    }

    void usageErrors()
    {
        const Cli cli(m_data.path());
        for (const QStringList &options :
             {QStringList{QStringLiteral("--format"), QStringLiteral("xml")},
              QStringList{QStringLiteral("--decision"), QStringLiteral("maybe")},
              QStringList{QStringLiteral("--since"), QStringLiteral("yesterday")},
              QStringList{QStringLiteral("--limit"), QStringLiteral("-1")}}) {
            const CliRun run =
                cli.run(QStringList{QStringLiteral("network"), QStringLiteral("log")} + options);
            QCOMPARE(run.exitCode, 2);
        }
        const CliRun unknownTurn = cli.run({QStringLiteral("network"), QStringLiteral("log"),
                                            QStringLiteral("--turn"), QStringLiteral("az-none")});
        QCOMPARE(unknownTurn.exitCode, 1);
    }

    void followPrintsNewRows()
    {
        QProcess process;
        process.start(QStringLiteral(ARIZUKOCTL),
                      {QStringLiteral("--data-dir"), m_data.path(), QStringLiteral("network"),
                       QStringLiteral("log"), QStringLiteral("--format"), QStringLiteral("jsonl"),
                       QStringLiteral("--folder"), QStringLiteral("demo"),
                       QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--follow")});
        QVERIFY(process.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).count('\n') >= 1, 10000);
        QCOMPARE(hosts(jsonLines(out)), QStringList({QStringLiteral("d.example")}));
        write({row(5, turnB, QStringLiteral("other"), QStringLiteral("not-demo.example"), true),
               row(6, turnB, QStringLiteral("demo"), QStringLiteral("e.example"), false)});
        QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).count('\n') >= 2, 10000);
        QCOMPARE(hosts(jsonLines(out)),
                 QStringList({QStringLiteral("d.example"), QStringLiteral("e.example")}));
        QCOMPARE(process.state(), QProcess::Running);
        process.terminate();
        QVERIFY(process.waitForFinished());
    }

    void retention()
    {
        const Cli cli(m_data.path());
        const CliRun shown = cli.run(
            {QStringLiteral("network"), QStringLiteral("retention"), QStringLiteral("demo")});
        QCOMPARE(shown.exitCode, 0);
        QCOMPARE(shown.out, QByteArray("demo: 30 days\n"));
        const CliRun set =
            cli.run({QStringLiteral("--json"), QStringLiteral("network"),
                     QStringLiteral("retention"), QStringLiteral("demo"), QStringLiteral("7")});
        QCOMPARE(set.exitCode, 0);
        QCOMPARE(set.json().object().value(QLatin1String("days")).toInt(), 7);
        QCOMPARE(*ledger::Ledger(*m_store).retentionDays(QStringLiteral("demo")), 7);
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("retention"),
                          QStringLiteral("demo"), QStringLiteral("0")})
                     .exitCode,
                 1);
        QCOMPARE(cli.run({QStringLiteral("network"), QStringLiteral("retention"),
                          QStringLiteral("nosuch"), QStringLiteral("7")})
                     .exitCode,
                 1);
    }
};

QTEST_GUILESS_MAIN(TestCliNetworkLog)
#include "test_cli_network_log.moc"
