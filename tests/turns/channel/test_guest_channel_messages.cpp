// The check every line of a guest's channel passes before the engine stores
// anything of it (docs/guest.md, "The host reads the guest as untrusted"):
// only the kinds a guest sends, each with its own members and sizes, and a
// budget of output rows per turn.

#include "turns/guest_channel_messages.h"

#include <QJsonDocument>
#include <QTest>

using namespace arizuko::turns;

namespace {

QByteArray line(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

QJsonObject booted(qint64 seq)
{
    return {{QStringLiteral("type"), QStringLiteral("status")},
            {QStringLiteral("seq"), seq},
            {QStringLiteral("state"), QStringLiteral("booted")},
            {QStringLiteral("uptime_ms"), 3328},
            {QStringLiteral("kernel"), QStringLiteral("6.1.0-57-amd64")},
            {QStringLiteral("image"), QStringLiteral("abc")}};
}

QJsonObject output(qint64 seq, const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("seq"), seq},
            {QStringLiteral("line"), text}};
}

} // namespace

class TestGuestChannelMessages : public QObject
{
    Q_OBJECT

private slots:
    void whatTheGuestSendsPassesAsSent()
    {
        GuestMessageCheck check;
        const QList<QJsonObject> conversation{
            booted(1),
            {{QStringLiteral("type"), QStringLiteral("status")},
             {QStringLiteral("seq"), 2},
             {QStringLiteral("state"), QStringLiteral("running")},
             {QStringLiteral("uptime_ms"), 3386}},
            output(3, QStringLiteral("hello")),
            {{QStringLiteral("type"), QStringLiteral("log")},
             {QStringLiteral("seq"), 4},
             {QStringLiteral("source"), QStringLiteral("agent")},
             {QStringLiteral("line"), QString(maxGuestPieceChars, QLatin1Char('x'))},
             {QStringLiteral("continued"), true}},
            {{QStringLiteral("type"), QStringLiteral("exit")},
             {QStringLiteral("seq"), 5},
             {QStringLiteral("reason"), QStringLiteral("timeout")},
             {QStringLiteral("code"), 124},
             {QStringLiteral("message"), QStringLiteral("the turn's deadline passed")},
             {QStringLiteral("duration_ms"), 3004}}};
        for (const QJsonObject &message : conversation) {
            const auto checked = check.check(line(message));
            QVERIFY2(checked, qPrintable(checked ? QString() : checked.error().message));
            QCOMPARE(*checked, message);
        }
    }

    void kindsOnlyTheHostWritesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("why");
        QTest::newRow("network") << QByteArray(R"({"type":"network","seq":1,"event":"decision"})")
                                 << QStringLiteral("type `network` is not one a guest sends");
        QTest::newRow("phase") << QByteArray(R"({"type":"phase","seq":1,"state":"done"})")
                               << QStringLiteral("type `phase` is not one a guest sends");
        QTest::newRow("error") << QByteArray(R"({"type":"error","seq":1,"message":"x"})")
                               << QStringLiteral("type `error` is not one a guest sends");
        QTest::newRow("no type") << QByteArray(R"({"seq":1})")
                                 << QStringLiteral("a message without a string `type`");
        QTest::newRow("not an object")
            << QByteArray("[1]") << QStringLiteral("not a JSON object (another JSON value)");
        QTest::newRow("not JSON") << QByteArray("\x1b]0;title\x07")
                                  << QStringLiteral("a line that is not a JSON object");
        QTest::newRow("unknown member")
            << QByteArray(R"({"type":"event","seq":1,"line":"x","kind":"network"})")
            << QStringLiteral("a `event` has no member `kind`");
        QTest::newRow("wrong member type") << QByteArray(R"({"type":"event","seq":1,"line":7})")
                                           << QStringLiteral("`line` of a `event` is not a string");
        QTest::newRow("missing member") << QByteArray(R"({"type":"log","seq":1,"line":"x"})")
                                        << QStringLiteral("a `log` without `source`");
        QTest::newRow("source") << QByteArray(
                                       R"({"type":"log","seq":1,"source":"proxy","line":"x"})")
                                << QStringLiteral("`source` of a `log` is not one of agent, guest");
        QTest::newRow("no seq") << QByteArray(R"({"type":"event","line":"x"})")
                                << QStringLiteral("`seq` of a `event` is not an integer above 0");
        QTest::newRow("kernel too long")
            << line({{QStringLiteral("type"), QStringLiteral("status")},
                     {QStringLiteral("seq"), 1},
                     {QStringLiteral("state"), QStringLiteral("booted")},
                     {QStringLiteral("uptime_ms"), 1},
                     {QStringLiteral("kernel"), QString(257, QLatin1Char('k'))}})
            << QStringLiteral("`kernel` of a `status` is longer than 256 characters");
        QTest::newRow("piece too long")
            << line(output(1, QString(maxGuestPieceChars + 1, QLatin1Char('x'))))
            << QStringLiteral("`line` of a `event` is longer than 1048576 characters");
    }

    void kindsOnlyTheHostWritesAreRefused()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, why);
        GuestMessageCheck check;
        const auto checked = check.check(line);
        QVERIFY(!checked);
        QVERIFY2(checked.error().message.contains(why), qPrintable(checked.error().message));
    }

    void seqIncreasesStatesComeOnceAndExitIsLast()
    {
        GuestMessageCheck check;
        QVERIFY(check.check(line(booted(1))));
        QCOMPARE(check.check(line(booted(2))).error().message,
                 QStringLiteral("a second `status` `booted`"));
        QVERIFY(check.check(line(output(5, QStringLiteral("a")))));
        QCOMPARE(check.check(line(output(5, QStringLiteral("replayed")))).error().message,
                 QStringLiteral("`seq` of a `event` is not an integer above 5"));
        // A refused line does not move seq on.
        QVERIFY(check.check(line(output(6, QStringLiteral("b")))));
        QVERIFY(check.check(
            QByteArray(R"({"type":"exit","seq":7,"reason":"exited","code":0,"duration_ms":1})")));
        QCOMPARE(check.check(line(output(8, QStringLiteral("late")))).error().message,
                 QStringLiteral("a message after `exit`"));
    }

    void theOutputBudgetSaysItsLimitOnce()
    {
        GuestOutputBudget rows;
        for (qsizetype i = 0; i < maxGuestOutputRows; ++i)
            QCOMPARE(rows.take(1), GuestOutputBudget::Outcome::Store);
        QCOMPARE(rows.take(1), GuestOutputBudget::Outcome::LimitReached);
        QCOMPARE(rows.take(1), GuestOutputBudget::Outcome::Drop);
        QCOMPARE(rows.rows(), maxGuestOutputRows);

        GuestOutputBudget chars;
        QCOMPARE(chars.take(maxGuestOutputChars), GuestOutputBudget::Outcome::Store);
        QCOMPARE(chars.take(1), GuestOutputBudget::Outcome::LimitReached);
        QCOMPARE(chars.take(0), GuestOutputBudget::Outcome::Drop);
    }
};

QTEST_GUILESS_MAIN(TestGuestChannelMessages)
#include "test_guest_channel_messages.moc"
