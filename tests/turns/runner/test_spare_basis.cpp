// What decides whether a turn may adopt a spare (spare_pool.h): any
// difference in what the spare fixed (its proxy's lists, the egress grant,
// the home it shares, the demo page's loopback access) sends the turn cold,
// and the reason names it. The home is known by the folder's home id and
// the directory's device and inode: a folder of the same name (moved away,
// then added again) differs.

#include "turns/spare_pool.h"

#include <QTest>

using namespace arizuko::turns;

class SpareBasisTest final : public QObject
{
    Q_OBJECT

    static TurnHome corpHome()
    {
        return {QStringLiteral("corp"),
                QStringLiteral("9a41f0"),
                QStringLiteral("/data/homes/9a41f0"),
                {2049, 1310}};
    }

private slots:
    void equalPlansAdopt()
    {
        TurnPlan plan;
        plan.home = corpHome();
        plan.allow = {QStringLiteral("github.com"), QStringLiteral("pypi.org")};
        plan.deny = {QStringLiteral("gist.github.com")};
        const SpareBasis made = SpareBasis::of(QStringLiteral("corp"), plan);
        QCOMPARE(made.differenceFrom(SpareBasis::of(QStringLiteral("corp"), plan)), QString());
    }

    void anyDifferenceIsNamed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("named");
        QTest::newRow("allow") << QStringLiteral("allow") << QStringLiteral("the allowlist");
        QTest::newRow("deny") << QStringLiteral("deny") << QStringLiteral("the denylist");
        QTest::newRow("egress") << QStringLiteral("allowAll") << QStringLiteral("the egress grant");
        QTest::newRow("home replaced")
            << QStringLiteral("inode") << QStringLiteral("the folder's home");
        QTest::newRow("home on another device")
            << QStringLiteral("device") << QStringLiteral("the folder's home");
        QTest::newRow("folder re-added under its name")
            << QStringLiteral("id") << QStringLiteral("the folder's identity");
        QTest::newRow("folder") << QStringLiteral("folder") << QStringLiteral("the folder");
        QTest::newRow("demo page")
            << QStringLiteral("allowLoopback") << QStringLiteral("the demo page's loopback access");
        QTest::newRow("request rules")
            << QStringLiteral("rules") << QStringLiteral("the rules by method and path");
    }

    void anyDifferenceIsNamed()
    {
        QFETCH(QString, field);
        QFETCH(QString, named);
        TurnPlan plan;
        plan.home = corpHome();
        plan.allow = {QStringLiteral("github.com")};
        const SpareBasis made = SpareBasis::of(QStringLiteral("corp"), plan);
        QString folder = QStringLiteral("corp");
        if (field == QLatin1String("allow"))
            plan.allow = {QStringLiteral("github.com"), QStringLiteral("evil.example")};
        else if (field == QLatin1String("deny"))
            plan.deny = {QStringLiteral("github.com")};
        else if (field == QLatin1String("allowAll"))
            plan.allowAll = true;
        else if (field == QLatin1String("inode"))
            plan.home.identity.inode += 1;
        else if (field == QLatin1String("device"))
            plan.home.identity.device += 1;
        else if (field == QLatin1String("id"))
            plan.home = {QStringLiteral("corp"),
                         QStringLiteral("5e0c1d"),
                         QStringLiteral("/data/homes/5e0c1d"),
                         {2049, 1311}};
        else if (field == QLatin1String("allowLoopback"))
            plan.allowLoopback = true;
        else if (field == QLatin1String("rules"))
            plan.network.rules << arizuko::policy::NetworkRule{1,
                                                               QStringLiteral("corp"),
                                                               QStringLiteral("github.com"),
                                                               arizuko::policy::RuleKind::Deny,
                                                               {},
                                                               {},
                                                               QStringLiteral("POST"),
                                                               QStringLiteral("/**")};
        else
            folder = QStringLiteral("corp/eng");
        const QString why = made.differenceFrom(SpareBasis::of(folder, plan));
        QVERIFY2(why.startsWith(named), qPrintable(why));
        QVERIFY(why.endsWith(QStringLiteral("changed since the spare was made")));
    }
};

QTEST_GUILESS_MAIN(SpareBasisTest)
#include "test_spare_basis.moc"
