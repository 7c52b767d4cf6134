// `arizukoctl network pending|approve|deny ID` across processes on a real
// store: this test is the engine (its EgressQuestions, with the proxies
// played by callbacks), arizukoctl the other process. A question the
// engine asked is listed; approve --once, --turn, --always and deny reach
// the waiting proxy through the store; --always leaves the folder's allow
// rule audited as the CLI's user; `network deny` of a folder and a host
// still adds a deny rule; `folder network` sets and shows the setting.

#include "cli_runner.h"
#include "folders/folders.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"
#include "turns/egress_questions.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;

namespace {

const QString turnId = QStringLiteral("cccccccc-0000-0000-0000-000000000000");

struct Told
{
    quint64 proxyId = 0;
    QString answer;
    QString reason;
};

} // namespace

class CliNetworkQuestionsTest : public QObject
{
    Q_OBJECT

private slots:
    void answeredFromAnotherProcess()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data"));
        const Cli cli(data);
        QCOMPARE(cli.run({QStringLiteral("folder"), QStringLiteral("add"), QStringLiteral("corp")})
                     .exitCode,
                 0);
        CliRun run =
            cli.run({QStringLiteral("--json"), QStringLiteral("folder"), QStringLiteral("network"),
                     QStringLiteral("corp"), QStringLiteral("--unlisted"), QStringLiteral("ask"),
                     QStringLiteral("--ask-timeout"), QStringLiteral("120")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().object().value(QStringLiteral("unlisted_hosts")).toString(),
                 QStringLiteral("ask"));
        QCOMPARE(run.json().object().value(QStringLiteral("ask_timeout_seconds")).toInt(), 120);
        run = cli.run({QStringLiteral("folder"), QStringLiteral("network"), QStringLiteral("corp"),
                       QStringLiteral("--unlisted"), QStringLiteral("maybe")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("deny, ask or inherit"), run.err.constData());

        auto opened = store::Store::open(data);
        QVERIFY(opened.ok());
        store::Store &store = **opened;
        turns::TurnRecord record;
        record.id = turnId;
        record.name = QStringLiteral("az-cccccccc");
        record.folder = QStringLiteral("corp");
        record.topic = QStringLiteral("main");
        record.agent = QStringLiteral("command");
        record.prompt = QStringLiteral("curl");
        record.queuedAt = store::nowTimestamp();
        turns::TurnRecords records(store);
        QVERIFY(records.insert(record).ok());
        QVERIFY(records.setState(turnId, turns::TurnState::Running, store::nowTimestamp()).ok());

        turns::EgressQuestions questions(store, QStringLiteral("7:7"));
        QSignalSpy asked(&questions, &turns::EgressQuestions::asked);
        QList<Told> told;
        const auto ask = [&](quint64 id, const QString &host) {
            questions.ask({turnId, QStringLiteral("corp"), std::chrono::seconds(120)},
                          {{QStringLiteral("id"), qint64(id)},
                           {QStringLiteral("method"), QStringLiteral("GET")},
                           {QStringLiteral("host"), host},
                           {QStringLiteral("port"), 80},
                           {QStringLiteral("path"), QStringLiteral("/simple/")}},
                          [&told](quint64 proxyId, const QString &answer, const QString &reason) {
                              told << Told{proxyId, answer, reason};
                          });
        };
        const QStringList hosts{QStringLiteral("once.example"), QStringLiteral("turn.example"),
                                QStringLiteral("always.example"), QStringLiteral("deny.example")};
        for (int index = 0; index < hosts.size(); ++index)
            ask(quint64(index + 1), hosts.at(index));
        QCOMPARE(asked.size(), 4);

        run = cli.run(
            {QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("pending")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray pending = run.json().array();
        QCOMPARE(pending.size(), 4);
        QList<qint64> ids;
        for (const QJsonValue &question : pending) {
            ids << question.toObject().value(QStringLiteral("id")).toInteger();
            QCOMPARE(question.toObject().value(QStringLiteral("turn")).toString(), turnId);
            QCOMPARE(question.toObject().value(QStringLiteral("path")).toString(),
                     QStringLiteral("/simple/"));
        }
        QCOMPARE(pending.at(2).toObject().value(QStringLiteral("wildcard")).toString(),
                 QStringLiteral("*.always.example"));

        const QList<QStringList> answers{
            {QStringLiteral("approve"), QString::number(ids.at(0))},
            {QStringLiteral("approve"), QString::number(ids.at(1)), QStringLiteral("--turn")},
            {QStringLiteral("approve"), QString::number(ids.at(2)), QStringLiteral("--always")},
            {QStringLiteral("deny"), QString::number(ids.at(3))}};
        const QStringList expected{QStringLiteral("once"), QStringLiteral("turn"),
                                   QStringLiteral("turn"), QStringLiteral("deny")};
        for (int index = 0; index < answers.size(); ++index) {
            run = cli.run(QStringList{QStringLiteral("network")} + answers.at(index));
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QTRY_COMPARE_WITH_TIMEOUT(told.size(), index + 1, 5000);
            QCOMPARE(told.last().proxyId, quint64(index + 1));
            QCOMPARE(told.last().answer, expected.at(index));
        }
        QCOMPARE(told.last().reason, QStringLiteral("user-denied"));
        QVERIFY(questions.pending().isEmpty());
        run = cli.run(
            {QStringLiteral("network"), QStringLiteral("approve"), QString::number(ids.at(0))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no open question"), run.err.constData());

        // Always: the folder's rule, audited as the CLI's user.
        run = cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("list"),
                       QStringLiteral("corp")});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray rules = run.json().array();
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().toObject().value(QStringLiteral("target")).toString(),
                 QStringLiteral("always.example"));
        QCOMPARE(rules.first().toObject().value(QStringLiteral("created_by")).toString(),
                 QStringLiteral("user:cli"));
        // Two arguments: still the deny rule.
        run = cli.run({QStringLiteral("network"), QStringLiteral("deny"), QStringLiteral("corp"),
                       QStringLiteral("evil.example")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        run = cli.run({QStringLiteral("--json"), QStringLiteral("network"), QStringLiteral("list"),
                       QStringLiteral("corp")});
        QCOMPARE(run.json().array().size(), 2);
    }
};

QTEST_GUILESS_MAIN(CliNetworkQuestionsTest)
#include "test_cli_network_questions.moc"
