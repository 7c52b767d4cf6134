// Routes against a real store: the lowest seq whose key=glob predicates all
// match wins, `*` stays within a '/' segment, and #observe is reported.

#include "policy_fixture.h"

#include <QTest>

using namespace arizuko::policy;

namespace {

MessageAttributes attributes(const QString &text)
{
    MessageAttributes parsed;
    for (const QString &pair : text.split(u' ', Qt::SkipEmptyParts))
        parsed.insert(pair.section(u'=', 0, 0), pair.section(u'=', 1));
    return parsed;
}

void buildRoutes(Routes &routes)
{
    // Inserted out of seq order on purpose: seq decides, not insertion.
    const QList<std::tuple<qint64, QString, QString>> rows = {
        {30, QStringLiteral("platform=cli"), QStringLiteral("inbox#observe")},
        {10, QStringLiteral("platform=cli chat=corp/*"), QStringLiteral("corp")},
        {5, QStringLiteral("chat=corp/eng/**"), QStringLiteral("corp/eng")},
        {20, QStringLiteral("platform=tele* chat=?"), QStringLiteral("short")},
        {99, QStringLiteral(""), QStringLiteral("fallback")},
        {10, QStringLiteral("platform=cli chat=ops"), QStringLiteral("ops")},
    };
    for (const auto &[seq, match, target] : rows) {
        if (!routes.add(seq, match, target, QStringLiteral("test")))
            qFatal("cannot add route %s", qPrintable(match));
    }
}

} // namespace

class RoutesTest : public QObject
{
    Q_OBJECT

private slots:
    void resolve_data();
    void resolve();
    void noRouteMatches();
    void equalSeqLowerIdWins();
    void addValidates();
    void removeAndList();
    void moveKeepsTheSeqValues();
    void moveRenumbersSharedSeqs();
};

void RoutesTest::resolve_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("folder");
    QTest::addColumn<bool>("observe");
    QTest::newRow("all predicates match")
        << QStringLiteral("platform=cli chat=corp/x") << QStringLiteral("corp") << false;
    QTest::newRow("lower seq wins")
        << QStringLiteral("platform=cli chat=corp/eng") << QStringLiteral("corp/eng") << false;
    QTest::newRow("** spans segments")
        << QStringLiteral("platform=x chat=corp/eng/a/b") << QStringLiteral("corp/eng") << false;
    QTest::newRow("* does not cross /")
        << QStringLiteral("platform=cli chat=corp/x/y") << QStringLiteral("inbox") << true;
    QTest::newRow("one predicate fails")
        << QStringLiteral("platform=web chat=corp/x") << QStringLiteral("fallback") << false;
    QTest::newRow("missing attribute fails")
        << QStringLiteral("chat=corp/x") << QStringLiteral("fallback") << false;
    QTest::newRow("observe flag") << QStringLiteral("platform=cli chat=elsewhere")
                                  << QStringLiteral("inbox") << true;
    QTest::newRow("in-segment * and ?")
        << QStringLiteral("platform=telegram chat=q") << QStringLiteral("short") << false;
    QTest::newRow("? is one character")
        << QStringLiteral("platform=telegram chat=qq") << QStringLiteral("fallback") << false;
    QTest::newRow("extra attributes ignored")
        << QStringLiteral("platform=cli chat=corp/x lang=en") << QStringLiteral("corp") << false;
    QTest::newRow("empty match is catch-all")
        << QStringLiteral("") << QStringLiteral("fallback") << false;
}

void RoutesTest::resolve()
{
    QFETCH(QString, message);
    QFETCH(QString, folder);
    QFETCH(bool, observe);
    PolicyFixture fixture;
    buildRoutes(fixture.policy().routes());
    const auto match = fixture.policy().routes().resolve(attributes(message));
    QVERIFY(match.ok());
    QVERIFY(match->has_value());
    QCOMPARE((*match)->folder, folder);
    QCOMPARE((*match)->observe, observe);
    QCOMPARE((*match)->route.target, observe ? folder + QStringLiteral("#observe") : folder);
}

void RoutesTest::noRouteMatches()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(!routes.resolve(attributes(QStringLiteral("platform=cli")))->has_value());
    QVERIFY(
        routes.add(1, QStringLiteral("platform=web"), QStringLiteral("web"), QStringLiteral("t"))
            .ok());
    QVERIFY(!routes.resolve(attributes(QStringLiteral("platform=cli")))->has_value());
}

void RoutesTest::equalSeqLowerIdWins()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(
        routes.add(7, QStringLiteral("platform=*"), QStringLiteral("first"), QStringLiteral("t"))
            .ok());
    QVERIFY(
        routes.add(7, QStringLiteral("platform=cli"), QStringLiteral("second"), QStringLiteral("t"))
            .ok());
    QCOMPARE((*routes.resolve(attributes(QStringLiteral("platform=cli"))))->folder,
             QStringLiteral("first"));
}

void RoutesTest::addValidates()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QCOMPARE(routes.add(1, QStringLiteral("platform"), QStringLiteral("x"), QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-route-match"));
    QCOMPARE(routes.add(1, QStringLiteral("=cli"), QStringLiteral("x"), QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-route-match"));
    QCOMPARE(
        routes.add(1, QStringLiteral("a=b"), QStringLiteral(""), QStringLiteral("t")).error().code,
        QStringLiteral("policy.bad-route-target"));
    QCOMPARE(routes.add(1, QStringLiteral("a=b"), QStringLiteral("x#watch"), QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-route-target"));
    QCOMPARE(routes.add(1, QStringLiteral("a=b"), QStringLiteral("#observe"), QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-route-target"));
    const auto normalised =
        routes.add(2, QStringLiteral("  a=b \t c=d "), QStringLiteral("x"), QStringLiteral("t"));
    QCOMPARE(normalised->match, QStringLiteral("a=b c=d"));
    // A catch-all however it comes: null, empty or blank.
    for (const QString &catchAll : {QString(), QStringLiteral(""), QStringLiteral("  ")})
        QVERIFY(routes.add(3, catchAll, QStringLiteral("x"), QStringLiteral("t")).ok());
    // Targets are folder paths, so they hide nothing a folder name could not.
    for (const QString &hostile : {QStringLiteral("x\u202Ey"), QStringLiteral("x\x01"),
                                   QString(200, u'a'), QStringLiteral("corp/*")})
        QCOMPARE(routes.add(1, QStringLiteral("a=b"), hostile, QStringLiteral("t")).error().code,
                 QStringLiteral("policy.bad-route-target"));
    QCOMPARE(routes.add(1, QStringLiteral("a=b\u202E"), QStringLiteral("x"), QStringLiteral("t"))
                 .error()
                 .code,
             QStringLiteral("policy.bad-route-match"));
}

void RoutesTest::removeAndList()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    buildRoutes(routes);
    const auto listed = routes.list();
    QCOMPARE(listed->size(), 6);
    QCOMPARE(listed->first().seq, 5);
    QCOMPARE(listed->last().seq, 99);
    const qint64 eng = listed->first().id;
    QCOMPARE(routes.remove(eng, QStringLiteral("t"))->target, QStringLiteral("corp/eng"));
    QCOMPARE((*routes.resolve(attributes(QStringLiteral("platform=cli chat=corp/eng"))))->folder,
             QStringLiteral("corp"));
    QCOMPARE(routes.remove(eng, QStringLiteral("t")).error().code,
             QStringLiteral("policy.no-such-route"));
}

QTEST_MAIN(RoutesTest)

void RoutesTest::moveKeepsTheSeqValues()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(routes.add(10, QStringLiteral("a=1"), QStringLiteral("one"), QStringLiteral("t")).ok());
    QVERIFY(routes.add(20, QStringLiteral("a=*"), QStringLiteral("two"), QStringLiteral("t")).ok());
    QVERIFY(routes.add(35, QStringLiteral(""), QStringLiteral("three"), QStringLiteral("t")).ok());
    QCOMPARE((*routes.resolve(attributes(QStringLiteral("a=1"))))->folder, QStringLiteral("one"));
    const auto before = routes.list();
    QVERIFY(before.ok());
    const qint64 catchAll = before->last().id;
    const auto moved = routes.move(catchAll, 0, QStringLiteral("t"));
    QVERIFY(moved.ok());
    const auto listed = routes.list();
    QVERIFY(listed.ok());
    QCOMPARE(listed->at(0).target, QStringLiteral("three"));
    QCOMPARE(listed->at(0).seq, 10);
    QCOMPARE(listed->at(1).target, QStringLiteral("one"));
    QCOMPARE(listed->at(1).seq, 20);
    QCOMPARE(listed->at(2).seq, 35);
    // Tried first now: the catch-all wins every message.
    QCOMPARE((*routes.resolve(attributes(QStringLiteral("a=1"))))->folder, QStringLiteral("three"));
    QCOMPARE(routes.move(catchAll, 3, QStringLiteral("t")).error().code,
             QStringLiteral("policy.bad-position"));
    QCOMPARE(routes.move(9999, 0, QStringLiteral("t")).error().code,
             QStringLiteral("policy.no-such-route"));
}

void RoutesTest::moveRenumbersSharedSeqs()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(routes.add(7, QStringLiteral("a=1"), QStringLiteral("one"), QStringLiteral("t")).ok());
    QVERIFY(routes.add(7, QStringLiteral("a=2"), QStringLiteral("two"), QStringLiteral("t")).ok());
    QVERIFY(
        routes.add(7, QStringLiteral("a=3"), QStringLiteral("three"), QStringLiteral("t")).ok());
    const auto before = routes.list();
    QVERIFY(before.ok());
    QVERIFY(routes.move(before->last().id, 1, QStringLiteral("t")).ok());
    const auto after = routes.list();
    QVERIFY(after.ok());
    QStringList order;
    for (const Route &route : *after)
        order << QStringLiteral("%1@%2").arg(route.target).arg(route.seq);
    QCOMPARE(order, (QStringList{QStringLiteral("one@10"), QStringLiteral("three@20"),
                                 QStringLiteral("two@30")}));
}

#include "test_routes.moc"
