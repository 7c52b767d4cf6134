// The engine's egress questions on a real store, with the proxies' side
// played by callbacks: the caps (per turn, per minute: beyond them denied
// ask-limit with no question shown), one question for the same host and
// port of one folder, the no-answer timeout, "always" as an audited folder
// rule, an answer written by another connection (another process) found
// and forwarded, and a turn's end closing its questions.

#include "audit/audit_log.h"
#include "folders/folders.h"
#include "policy/policy.h"
#include "store/store.h"
#include "store/timestamp.h"
#include "turn_records/turn_records.h"
#include "turns/egress_questions.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace arizuko;
using namespace arizuko::turns;

namespace {

const QString engineMark = QStringLiteral("4242:1");

struct Told
{
    quint64 proxyId = 0;
    QString answer;
    QString reason;
};

// What one proxy was told, in order.
struct FakeProxy
{
    QList<Told> told;

    ProxyAnswerer answerer()
    {
        return [this](quint64 id, const QString &answer, const QString &reason) {
            told << Told{id, answer, reason};
        };
    }
};

QJsonObject askLine(quint64 id, const QString &host, int port = 443)
{
    return {{QStringLiteral("event"), QStringLiteral("ask")},
            {QStringLiteral("id"), qint64(id)},
            {QStringLiteral("method"), QStringLiteral("CONNECT")},
            {QStringLiteral("host"), host},
            {QStringLiteral("port"), port}};
}

} // namespace

class TestEgressQuestions : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_directory = std::make_unique<QTemporaryDir>();
        QVERIFY(m_directory->isValid());
        auto opened = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(opened.ok());
        m_store = std::move(*opened);
        QVERIFY(folders::Folders(*m_store, QStringLiteral("user:test"))
                    .add(QStringLiteral("corp"))
                    .ok());
        for (const QString &id : {turnA, turnB}) {
            TurnRecord record;
            record.id = id;
            record.name = QStringLiteral("az-") + id.left(8);
            record.folder = QStringLiteral("corp");
            record.topic = QStringLiteral("main");
            record.agent = QStringLiteral("command");
            record.prompt = QStringLiteral("curl");
            record.queuedAt = store::nowTimestamp();
            TurnRecords records(*m_store);
            QVERIFY(records.insert(record).ok());
            QVERIFY(records.setState(id, TurnState::Running, store::nowTimestamp()).ok());
        }
    }
    void cleanup() { m_store.reset(); }

    void aTurnAsksAtMostItsCapAndTheRestIsDeniedUnshown()
    {
        EgressQuestions questions(*m_store, engineMark, {3, 100});
        QSignalSpy asked(&questions, &EgressQuestions::asked);
        FakeProxy proxy;
        for (quint64 id = 1; id <= 500; ++id)
            questions.ask(source(turnA), askLine(id, QStringLiteral("h%1.example").arg(id)),
                          proxy.answerer());
        QCOMPARE(asked.size(), 3);
        QCOMPARE(questions.pending().size(), 3);
        QCOMPARE(proxy.told.size(), 497);
        QCOMPARE(proxy.told.first().proxyId, quint64(4));
        QCOMPARE(proxy.told.first().answer, QStringLiteral("deny"));
        QCOMPARE(proxy.told.first().reason, QStringLiteral("ask-limit"));
        QCOMPARE(questions.limitedCount(), 497);
        const auto open = openQuestions(*m_store);
        QVERIFY(open.ok());
        QCOMPARE(open->size(), 3);
        // Another turn has its own cap.
        FakeProxy other;
        questions.ask(source(turnB), askLine(1, QStringLiteral("b.example")), other.answerer());
        QCOMPARE(asked.size(), 4);
        QVERIFY(other.told.isEmpty());
    }

    void allTurnsTogetherAskAtMostTheMinutesCap()
    {
        EgressQuestions questions(*m_store, engineMark, {100, 2});
        QSignalSpy asked(&questions, &EgressQuestions::asked);
        FakeProxy a, b;
        questions.ask(source(turnA), askLine(1, QStringLiteral("one.example")), a.answerer());
        questions.ask(source(turnB), askLine(1, QStringLiteral("two.example")), b.answerer());
        questions.ask(source(turnB), askLine(2, QStringLiteral("three.example")), b.answerer());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(b.told.size(), 1);
        QCOMPARE(b.told.first().reason, QStringLiteral("ask-limit"));
    }

    void theSameHostOfOneFolderIsOneQuestionAnsweredToEveryWaiter()
    {
        EgressQuestions questions(*m_store, engineMark);
        QSignalSpy asked(&questions, &EgressQuestions::asked);
        FakeProxy a, b;
        questions.ask(source(turnA), askLine(7, QStringLiteral("api.example.com")), a.answerer());
        questions.ask(source(turnB), askLine(3, QStringLiteral("api.example.com")), b.answerer());
        // Another port is another question.
        questions.ask(source(turnB), askLine(4, QStringLiteral("api.example.com"), 80),
                      b.answerer());
        QCOMPARE(asked.size(), 2);
        const EgressQuestion question = asked.first().first().value<EgressQuestion>();
        QCOMPARE(question.host, QStringLiteral("api.example.com"));
        QCOMPARE(question.wildcard(), QStringLiteral("*.api.example.com"));
        QCOMPARE(question.topic, QStringLiteral("main"));
        QVERIFY(
            questions.answer(question.id, QuestionAnswer::Once, QStringLiteral("user:gui")).ok());
        QCOMPARE(a.told.size(), 1);
        QCOMPARE(a.told.first().proxyId, quint64(7));
        QCOMPARE(a.told.first().answer, QStringLiteral("once"));
        QCOMPARE(b.told.size(), 1);
        QCOMPARE(b.told.first().proxyId, quint64(3));
        QCOMPARE(b.told.first().answer, QStringLiteral("once"));
        QCOMPARE(questions.pending().size(), 1); // port 80's
        // Answered: a second answer is refused.
        const Result<void> again =
            questions.answer(question.id, QuestionAnswer::Deny, QStringLiteral("user:gui"));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, QStringLiteral("egress.question-not-found"));
    }

    void anUnansweredQuestionIsDeniedAtItsTimeout()
    {
        EgressQuestions questions(*m_store, engineMark);
        QSignalSpy closed(&questions, &EgressQuestions::closed);
        FakeProxy proxy;
        QElapsedTimer clock;
        clock.start();
        questions.ask({turnA, QStringLiteral("corp"), std::chrono::seconds(1)},
                      askLine(9, QStringLiteral("slow.example")), proxy.answerer());
        QVERIFY(proxy.told.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(proxy.told.size(), 1, 5000);
        QVERIFY(clock.elapsed() >= 1000);
        QCOMPARE(proxy.told.first().answer, QStringLiteral("deny"));
        QCOMPARE(proxy.told.first().reason, QStringLiteral("no-answer"));
        QCOMPARE(closed.size(), 1);
        QSqlQuery row(m_store->database());
        QVERIFY(row.exec(QStringLiteral("SELECT answer, reason, answered_by, forwarded FROM "
                                        "egress_questions")));
        QVERIFY(row.next());
        QCOMPARE(row.value(0).toString(), QStringLiteral("deny"));
        QCOMPARE(row.value(1).toString(), QStringLiteral("no-answer"));
        QCOMPARE(row.value(2).toString(), QStringLiteral("system:turns"));
        QCOMPARE(row.value(3).toInt(), 1);
    }

    void alwaysAddsTheFoldersRuleAuditedAsTheUser()
    {
        EgressQuestions questions(*m_store, engineMark);
        QSignalSpy asked(&questions, &EgressQuestions::asked);
        FakeProxy proxy;
        questions.ask(source(turnA), askLine(2, QStringLiteral("pypi.org")), proxy.answerer());
        QCOMPARE(asked.size(), 1);
        const qint64 id = asked.first().first().value<EgressQuestion>().id;
        QVERIFY(questions.answer(id, QuestionAnswer::Always, QStringLiteral("user:gui")).ok());
        QCOMPARE(proxy.told.size(), 1);
        QCOMPARE(proxy.told.first().answer, QStringLiteral("turn"));
        policy::Policy policy(*m_store);
        const auto rules = policy.network().list(QStringLiteral("corp"));
        QVERIFY(rules.ok());
        QCOMPARE(rules->size(), 1);
        QCOMPARE(rules->first().target, QStringLiteral("pypi.org"));
        QCOMPARE(rules->first().kind, policy::RuleKind::Allow);
        QCOMPARE(rules->first().createdBy, QStringLiteral("user:gui"));
        const auto entries = audit::AuditLog(*m_store).query({});
        QVERIFY(entries.ok());
        QStringList audited;
        for (const audit::Entry &entry : *entries)
            if (entry.actor == QLatin1String("user:gui"))
                audited << entry.kind;
        QVERIFY2(audited.contains(QStringLiteral("network.question")),
                 qPrintable(audited.join(QLatin1Char(','))));
        QVERIFY2(audited.size() == 2, qPrintable(audited.join(QLatin1Char(','))));
        QVERIFY(policy.network().test(QStringLiteral("corp"), QStringLiteral("pypi.org"))->allowed);
    }

    void anAnswerOfAnotherProcessIsForwarded()
    {
        EgressQuestions questions(*m_store, engineMark);
        QSignalSpy asked(&questions, &EgressQuestions::asked);
        FakeProxy proxy;
        questions.ask(source(turnA), askLine(5, QStringLiteral("cdn.example")), proxy.answerer());
        const qint64 id = asked.first().first().value<EgressQuestion>().id;
        // Its own connection, as arizukoctl network deny has.
        auto other = store::Store::open(m_directory->filePath(QStringLiteral("data")));
        QVERIFY(other.ok());
        QVERIFY(answerQuestion(**other, id, QuestionAnswer::Deny, QStringLiteral("user:cli")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(proxy.told.size(), 1, 3000);
        QCOMPARE(proxy.told.first().answer, QStringLiteral("deny"));
        QCOMPARE(proxy.told.first().reason, QStringLiteral("user-denied"));
        QVERIFY(questions.pending().isEmpty());
        QVERIFY(openQuestions(**other)->isEmpty());
    }

    void aTurnsEndClosesItsQuestions()
    {
        EgressQuestions questions(*m_store, engineMark);
        QSignalSpy closed(&questions, &EgressQuestions::closed);
        FakeProxy a, b;
        questions.ask(source(turnA), askLine(1, QStringLiteral("shared.example")), a.answerer());
        questions.ask(source(turnB), askLine(1, QStringLiteral("shared.example")), b.answerer());
        questions.ask(source(turnA), askLine(2, QStringLiteral("own.example")), a.answerer());
        questions.closeTurn(turnA);
        // The shared one waits on for turn B; A's own is closed.
        QCOMPARE(closed.size(), 1);
        QCOMPARE(questions.pending().size(), 1);
        QCOMPARE(openQuestions(*m_store)->size(), 1);
        QVERIFY(questions
                    .answer(questions.pending().first().id, QuestionAnswer::Turn,
                            QStringLiteral("user:gui"))
                    .ok());
        QVERIFY(a.told.isEmpty());
        QCOMPARE(b.told.size(), 1);
        QCOMPARE(b.told.first().answer, QStringLiteral("turn"));
    }

private:
    static QuestionSource source(const QString &turn)
    {
        return {turn, QStringLiteral("corp"), std::chrono::seconds(60)};
    }

    const QString turnA = QStringLiteral("aaaaaaaa-0000-0000-0000-000000000000");
    const QString turnB = QStringLiteral("bbbbbbbb-0000-0000-0000-000000000000");
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<store::Store> m_store;
};

QTEST_GUILESS_MAIN(TestEgressQuestions)
#include "test_egress_questions.moc"
