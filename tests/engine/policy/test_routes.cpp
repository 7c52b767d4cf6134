// Routes against a real store: the lowest seq whose key=glob predicates all
// match wins, `*` stays within a '/' segment, and #observe is reported.

#include "policy_fixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
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
        {30, u"platform=cli"_s, u"inbox#observe"_s},
        {10, u"platform=cli chat=corp/*"_s, u"corp"_s},
        {5, u"chat=corp/eng/**"_s, u"corp/eng"_s},
        {20, u"platform=tele* chat=?"_s, u"short"_s},
        {99, u""_s, u"fallback"_s},
        {10, u"platform=cli chat=ops"_s, u"ops"_s},
    };
    for (const auto &[seq, match, target] : rows) {
        if (!routes.add(seq, match, target, u"test"_s))
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
    QTest::newRow("all predicates match") << u"platform=cli chat=corp/x"_s << u"corp"_s << false;
    QTest::newRow("lower seq wins") << u"platform=cli chat=corp/eng"_s << u"corp/eng"_s << false;
    QTest::newRow("** spans segments")
        << u"platform=x chat=corp/eng/a/b"_s << u"corp/eng"_s << false;
    QTest::newRow("* does not cross /") << u"platform=cli chat=corp/x/y"_s << u"inbox"_s << true;
    QTest::newRow("one predicate fails") << u"platform=web chat=corp/x"_s << u"fallback"_s << false;
    QTest::newRow("missing attribute fails") << u"chat=corp/x"_s << u"fallback"_s << false;
    QTest::newRow("observe flag") << u"platform=cli chat=elsewhere"_s << u"inbox"_s << true;
    QTest::newRow("in-segment * and ?") << u"platform=telegram chat=q"_s << u"short"_s << false;
    QTest::newRow("? is one character") << u"platform=telegram chat=qq"_s << u"fallback"_s << false;
    QTest::newRow("extra attributes ignored")
        << u"platform=cli chat=corp/x lang=en"_s << u"corp"_s << false;
    QTest::newRow("empty match is catch-all") << u""_s << u"fallback"_s << false;
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
    QCOMPARE((*match)->route.target, observe ? folder + u"#observe"_s : folder);
}

void RoutesTest::noRouteMatches()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(!routes.resolve(attributes(u"platform=cli"_s))->has_value());
    QVERIFY(routes.add(1, u"platform=web"_s, u"web"_s, u"t"_s).ok());
    QVERIFY(!routes.resolve(attributes(u"platform=cli"_s))->has_value());
}

void RoutesTest::equalSeqLowerIdWins()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(routes.add(7, u"platform=*"_s, u"first"_s, u"t"_s).ok());
    QVERIFY(routes.add(7, u"platform=cli"_s, u"second"_s, u"t"_s).ok());
    QCOMPARE((*routes.resolve(attributes(u"platform=cli"_s)))->folder, u"first"_s);
}

void RoutesTest::addValidates()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QCOMPARE(routes.add(1, u"platform"_s, u"x"_s, u"t"_s).error().code,
             u"policy.bad-route-match"_s);
    QCOMPARE(routes.add(1, u"=cli"_s, u"x"_s, u"t"_s).error().code, u"policy.bad-route-match"_s);
    QCOMPARE(routes.add(1, u"a=b"_s, u""_s, u"t"_s).error().code, u"policy.bad-route-target"_s);
    QCOMPARE(routes.add(1, u"a=b"_s, u"x#watch"_s, u"t"_s).error().code,
             u"policy.bad-route-target"_s);
    QCOMPARE(routes.add(1, u"a=b"_s, u"#observe"_s, u"t"_s).error().code,
             u"policy.bad-route-target"_s);
    const auto normalised = routes.add(2, u"  a=b \t c=d "_s, u"x"_s, u"t"_s);
    QCOMPARE(normalised->match, u"a=b c=d"_s);
    // A catch-all however it comes: null, empty or blank.
    for (const QString &catchAll : {QString(), u""_s, u"  "_s})
        QVERIFY(routes.add(3, catchAll, u"x"_s, u"t"_s).ok());
    // Targets are folder paths, so they hide nothing a folder name could not.
    for (const QString &hostile : {u"x\u202Ey"_s, u"x\x01"_s, QString(200, u'a'), u"corp/*"_s})
        QCOMPARE(routes.add(1, u"a=b"_s, hostile, u"t"_s).error().code,
                 u"policy.bad-route-target"_s);
    QCOMPARE(routes.add(1, u"a=b\u202E"_s, u"x"_s, u"t"_s).error().code,
             u"policy.bad-route-match"_s);
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
    QCOMPARE(routes.remove(eng, u"t"_s)->target, u"corp/eng"_s);
    QCOMPARE((*routes.resolve(attributes(u"platform=cli chat=corp/eng"_s)))->folder, u"corp"_s);
    QCOMPARE(routes.remove(eng, u"t"_s).error().code, u"policy.no-such-route"_s);
}

QTEST_MAIN(RoutesTest)

void RoutesTest::moveKeepsTheSeqValues()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(routes.add(10, u"a=1"_s, u"one"_s, u"t"_s).ok());
    QVERIFY(routes.add(20, u"a=*"_s, u"two"_s, u"t"_s).ok());
    QVERIFY(routes.add(35, u""_s, u"three"_s, u"t"_s).ok());
    QCOMPARE((*routes.resolve(attributes(u"a=1"_s)))->folder, u"one"_s);
    const auto before = routes.list();
    QVERIFY(before.ok());
    const qint64 catchAll = before->last().id;
    const auto moved = routes.move(catchAll, 0, u"t"_s);
    QVERIFY(moved.ok());
    const auto listed = routes.list();
    QVERIFY(listed.ok());
    QCOMPARE(listed->at(0).target, u"three"_s);
    QCOMPARE(listed->at(0).seq, 10);
    QCOMPARE(listed->at(1).target, u"one"_s);
    QCOMPARE(listed->at(1).seq, 20);
    QCOMPARE(listed->at(2).seq, 35);
    // Tried first now: the catch-all wins every message.
    QCOMPARE((*routes.resolve(attributes(u"a=1"_s)))->folder, u"three"_s);
    QCOMPARE(routes.move(catchAll, 3, u"t"_s).error().code, u"policy.bad-position"_s);
    QCOMPARE(routes.move(9999, 0, u"t"_s).error().code, u"policy.no-such-route"_s);
}

void RoutesTest::moveRenumbersSharedSeqs()
{
    PolicyFixture fixture;
    Routes &routes = fixture.policy().routes();
    QVERIFY(routes.add(7, u"a=1"_s, u"one"_s, u"t"_s).ok());
    QVERIFY(routes.add(7, u"a=2"_s, u"two"_s, u"t"_s).ok());
    QVERIFY(routes.add(7, u"a=3"_s, u"three"_s, u"t"_s).ok());
    const auto before = routes.list();
    QVERIFY(before.ok());
    QVERIFY(routes.move(before->last().id, 1, u"t"_s).ok());
    const auto after = routes.list();
    QVERIFY(after.ok());
    QStringList order;
    for (const Route &route : *after)
        order << u"%1@%2"_s.arg(route.target).arg(route.seq);
    QCOMPARE(order, (QStringList{u"one@10"_s, u"three@20"_s, u"two@30"_s}));
}

#include "test_routes.moc"
