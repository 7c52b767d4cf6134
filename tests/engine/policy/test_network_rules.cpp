// Network rules against a real store: inheritance down '' -> a -> a/b,
// deduplication, allow-all only from the egress grant, and test() naming the
// rule and folder that decided, with the egress proxy's matching.

#include "policy_fixture.h"

#include <QTest>

using namespace arizuko::policy;

namespace {

void addRule(NetworkRules &rules, const QString &folder, const QString &host, RuleKind kind)
{
    const auto added = rules.add(folder, host, kind, QStringLiteral("test"));
    if (!added)
        qFatal("cannot add rule: %s", qPrintable(added.error().message));
}

// The tree most cases share: '' allows pypi.org; corp allows github.com and
// denies gist.github.com; corp/eng repeats github.com, allows *.npmjs.org and
// denies evil.com; corp/eng/sre allows 203.0.113.7; other allows other.org.
void buildTree(PolicyFixture &fixture)
{
    for (const QString &folder : {QStringLiteral("corp"), QStringLiteral("corp/eng"),
                                  QStringLiteral("corp/eng/sre"), QStringLiteral("other")})
        fixture.addFolder(folder);
    NetworkRules &rules = fixture.policy().network();
    addRule(rules, QStringLiteral(""), QStringLiteral("pypi.org"), RuleKind::Allow);
    addRule(rules, QStringLiteral("corp"), QStringLiteral("github.com"), RuleKind::Allow);
    addRule(rules, QStringLiteral("corp"), QStringLiteral("gist.github.com"), RuleKind::Deny);
    addRule(rules, QStringLiteral("corp/eng"), QStringLiteral("GitHub.com"), RuleKind::Allow);
    addRule(rules, QStringLiteral("corp/eng"), QStringLiteral("*.npmjs.org"), RuleKind::Allow);
    addRule(rules, QStringLiteral("corp/eng"), QStringLiteral("evil.com"), RuleKind::Deny);
    addRule(rules, QStringLiteral("corp/eng/sre"), QStringLiteral("203.0.113.7"), RuleKind::Allow);
    addRule(rules, QStringLiteral("other"), QStringLiteral("other.org"), RuleKind::Allow);
}

} // namespace

class NetworkRulesTest : public QObject
{
    Q_OBJECT

private slots:
    void resolveAlongAncestry_data();
    void resolveAlongAncestry();
    void resolveNamesOrigins();
    void allowAllOnlyFromEgressGrant();
    void testNamesDecidingRule_data();
    void testNamesDecidingRule();
    void testRefusesBadHost();
    void addValidatesAndNormalises();
    void removeOwnRules();
    void baseFolderAsNullString();
    void otherConnectionsChangesAreSeen();
};

void NetworkRulesTest::resolveAlongAncestry_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QStringList>("allow");
    QTest::addColumn<QStringList>("deny");
    QTest::newRow("base") << QStringLiteral("") << QStringList{QStringLiteral("pypi.org")}
                          << QStringList{};
    QTest::newRow("top") << QStringLiteral("corp")
                         << QStringList{QStringLiteral("pypi.org"), QStringLiteral("github.com")}
                         << QStringList{QStringLiteral("gist.github.com")};
    QTest::newRow("child dedups") << QStringLiteral("corp/eng")
                                  << QStringList{QStringLiteral("pypi.org"),
                                                 QStringLiteral("github.com"),
                                                 QStringLiteral("npmjs.org")}
                                  << QStringList{QStringLiteral("gist.github.com"),
                                                 QStringLiteral("evil.com")};
    QTest::newRow("grandchild") << QStringLiteral("corp/eng/sre")
                                << QStringList{QStringLiteral("pypi.org"),
                                               QStringLiteral("github.com"),
                                               QStringLiteral("npmjs.org"),
                                               QStringLiteral("203.0.113.7")}
                                << QStringList{QStringLiteral("gist.github.com"),
                                               QStringLiteral("evil.com")};
    QTest::newRow("folder without own rules")
        << QStringLiteral("corp/eng/sre/bot")
        << QStringList{QStringLiteral("pypi.org"), QStringLiteral("github.com"),
                       QStringLiteral("npmjs.org"), QStringLiteral("203.0.113.7")}
        << QStringList{QStringLiteral("gist.github.com"), QStringLiteral("evil.com")};
    QTest::newRow("sibling tree not inherited")
        << QStringLiteral("other")
        << QStringList{QStringLiteral("pypi.org"), QStringLiteral("other.org")} << QStringList{};
    QTest::newRow("name prefix is no ancestor")
        << QStringLiteral("corporate") << QStringList{QStringLiteral("pypi.org")} << QStringList{};
}

void NetworkRulesTest::resolveAlongAncestry()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, allow);
    QFETCH(QStringList, deny);
    PolicyFixture fixture;
    buildTree(fixture);
    const auto policy = fixture.policy().network().resolve(folder);
    QVERIFY(policy.ok());
    QCOMPARE(policy->allow, allow);
    QCOMPARE(policy->deny, deny);
    QVERIFY(!policy->allowAll);
}

void NetworkRulesTest::resolveNamesOrigins()
{
    PolicyFixture fixture;
    buildTree(fixture);
    const auto policy = fixture.policy().network().resolve(QStringLiteral("corp/eng"));
    QStringList origins;
    for (const NetworkRule &rule : policy->rules)
        origins << rule.folder + u':' + ruleKindName(rule.kind) + u':' + rule.target;
    QCOMPARE(origins, (QStringList{QStringLiteral(":allow:pypi.org"),
                                   QStringLiteral("corp:allow:github.com"),
                                   QStringLiteral("corp:deny:gist.github.com"),
                                   QStringLiteral("corp/eng:allow:github.com"),
                                   QStringLiteral("corp/eng:allow:npmjs.org"),
                                   QStringLiteral("corp/eng:deny:evil.com")}));
}

void NetworkRulesTest::allowAllOnlyFromEgressGrant()
{
    PolicyFixture fixture;
    buildTree(fixture);
    Grants &grants = fixture.grants();
    NetworkRules &network = fixture.policy().network();
    QVERIFY(!network.resolve(QStringLiteral("corp/eng"))->allowAll);
    // admin does not imply egress; a grant on another principal does not count.
    QVERIFY(grants
                .add(row(QStringLiteral("corp/eng"), QStringLiteral("admin"), QStringLiteral("**")),
                     QStringLiteral("t"))
                .ok());
    QVERIFY(
        grants
            .add(row(QStringLiteral("corp"), QStringLiteral("egress"), QStringLiteral("corp/**")),
                 QStringLiteral("t"))
            .ok());
    QVERIFY(!network.resolve(QStringLiteral("corp/eng"))->allowAll);
    QVERIFY(network.resolve(QStringLiteral("corp"))->allowAll);
    const auto grant = grants.add(
        row(QStringLiteral("corp/eng"), QStringLiteral("egress"), QStringLiteral("corp/eng")),
        QStringLiteral("t"));
    const auto policy = network.resolve(QStringLiteral("corp/eng"));
    QVERIFY(policy->allowAll);
    QCOMPARE(policy->egressGrant->id, grant->id);
    // Allow-all still loses to every deny, and says which grant allowed.
    const auto denied = network.test(QStringLiteral("corp/eng"), QStringLiteral("api.evil.com"));
    QVERIFY(!denied->allowed);
    const auto anyHost = network.test(QStringLiteral("corp/eng"), QStringLiteral("example.net"));
    QVERIFY(anyHost->allowed);
    QVERIFY(!anyHost->decidingRule);
    QCOMPARE(anyHost->egressGrant->id, grant->id);
    QVERIFY(anyHost->reason.contains(QStringLiteral("egress grant")));
    // A deny on the egress grant takes allow-all away again.
    QVERIFY(grants
                .add(row(QStringLiteral("corp/eng"), QStringLiteral("egress"), QStringLiteral("**"),
                         Effect::Deny),
                     QStringLiteral("t"))
                .ok());
    QVERIFY(!network.resolve(QStringLiteral("corp/eng"))->allowAll);
}

void NetworkRulesTest::testNamesDecidingRule_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<QString>("ruleFolder"); // null: no rule decided
    QTest::addColumn<QString>("ruleTarget");
    QTest::newRow("inherited from base")
        << QStringLiteral("corp/eng") << QStringLiteral("pypi.org") << true << QStringLiteral("")
        << QStringLiteral("pypi.org");
    QTest::newRow("subdomain, nearest rule")
        << QStringLiteral("corp/eng") << QStringLiteral("api.github.com") << true
        << QStringLiteral("corp/eng") << QStringLiteral("github.com");
    QTest::newRow("inherited deny beats own allow")
        << QStringLiteral("corp/eng") << QStringLiteral("gist.github.com") << false
        << QStringLiteral("corp") << QStringLiteral("gist.github.com");
    QTest::newRow("deny covers subdomains")
        << QStringLiteral("corp/eng/sre") << QStringLiteral("x.gist.github.com") << false
        << QStringLiteral("corp") << QStringLiteral("gist.github.com");
    QTest::newRow("own deny") << QStringLiteral("corp/eng") << QStringLiteral("evil.com") << false
                              << QStringLiteral("corp/eng") << QStringLiteral("evil.com");
    QTest::newRow("wildcard rule stored as base")
        << QStringLiteral("corp/eng") << QStringLiteral("registry.npmjs.org") << true
        << QStringLiteral("corp/eng") << QStringLiteral("npmjs.org");
    QTest::newRow("suffix lookalike")
        << QStringLiteral("corp/eng") << QStringLiteral("evilgithub.com") << false << QString()
        << QString();
    QTest::newRow("child rule not seen by parent")
        << QStringLiteral("corp") << QStringLiteral("registry.npmjs.org") << false << QString()
        << QString();
    QTest::newRow("IP literal exact")
        << QStringLiteral("corp/eng/sre") << QStringLiteral("203.0.113.7") << true
        << QStringLiteral("corp/eng/sre") << QStringLiteral("203.0.113.7");
    QTest::newRow("IP literal other")
        << QStringLiteral("corp/eng/sre") << QStringLiteral("203.0.113.8") << false << QString()
        << QString();
    QTest::newRow("case and trailing dot")
        << QStringLiteral("corp") << QStringLiteral("API.GitHub.COM.") << true
        << QStringLiteral("corp") << QStringLiteral("github.com");
    QTest::newRow("no rule at all") << QStringLiteral("other") << QStringLiteral("github.com")
                                    << false << QString() << QString();
}

void NetworkRulesTest::testNamesDecidingRule()
{
    QFETCH(QString, folder);
    QFETCH(QString, host);
    QFETCH(bool, allowed);
    QFETCH(QString, ruleFolder);
    QFETCH(QString, ruleTarget);
    PolicyFixture fixture;
    buildTree(fixture);
    const auto verdict = fixture.policy().network().test(folder, host);
    QVERIFY(verdict.ok());
    QCOMPARE(verdict->allowed, allowed);
    if (ruleFolder.isNull()) {
        QVERIFY(!verdict->decidingRule);
        QVERIFY2(verdict->reason.contains(QStringLiteral("no rule")), qPrintable(verdict->reason));
    } else {
        QVERIFY(verdict->decidingRule);
        QCOMPARE(verdict->decidingRule->folder, ruleFolder);
        QCOMPARE(verdict->decidingRule->target, ruleTarget);
        QVERIFY2(verdict->reason.contains(ruleTarget), qPrintable(verdict->reason));
    }
}

void NetworkRulesTest::testRefusesBadHost()
{
    PolicyFixture fixture;
    const auto verdict =
        fixture.policy().network().test(QStringLiteral(""), QStringLiteral("https://github.com/x"));
    QVERIFY(!verdict.ok());
    QCOMPARE(verdict.error().code, QStringLiteral("policy.bad-host"));
}

void NetworkRulesTest::addValidatesAndNormalises()
{
    PolicyFixture fixture;
    fixture.addFolder(QStringLiteral("corp"));
    NetworkRules &network = fixture.policy().network();
    const auto idn = network.add(QStringLiteral("corp"), QStringLiteral("*.Bücher.de"),
                                 RuleKind::Allow, QStringLiteral("alice"));
    QVERIFY(idn.ok());
    QVERIFY(idn->created);
    QCOMPARE(idn->rule.target, QStringLiteral("xn--bcher-kva.de"));
    QCOMPARE(idn->rule.createdBy, QStringLiteral("alice"));
    const auto again = network.add(QStringLiteral("corp"), QStringLiteral("xn--bcher-kva.de"),
                                   RuleKind::Allow, QStringLiteral("bob"));
    QVERIFY(again.ok());
    QVERIFY(!again->created);
    QCOMPARE(again->rule.id, idn->rule.id);
    for (const QString &bad :
         {QStringLiteral("https://x.org"), QStringLiteral("x.org:443"), QStringLiteral("*"),
          QStringLiteral("x .org"), QStringLiteral("x.org/path")}) {
        const auto refused =
            network.add(QStringLiteral("corp"), bad, RuleKind::Allow, QStringLiteral("alice"));
        QVERIFY2(!refused.ok(), qPrintable(bad));
        QCOMPARE(refused.error().code, QStringLiteral("policy.bad-host"));
    }
    QCOMPARE(network
                 .add(QStringLiteral("nope"), QStringLiteral("x.org"), RuleKind::Allow,
                      QStringLiteral("a"))
                 .error()
                 .code,
             QStringLiteral("policy.no-such-folder"));
    QCOMPARE(network.list(QStringLiteral("corp"))->size(), 1);
    QVERIFY(network
                .add(QStringLiteral(""), QStringLiteral("base.org"), RuleKind::Deny,
                     QStringLiteral("a"))
                .ok());
    QCOMPARE(network.list()->size(), 2);
}

void NetworkRulesTest::baseFolderAsNullString()
{
    // The window passes the base as QString(): it must work like QStringLiteral("").
    PolicyFixture fixture;
    NetworkRules &network = fixture.policy().network();
    const auto added =
        network.add(QString(), QStringLiteral("crates.io"), RuleKind::Allow, QStringLiteral("a"));
    QVERIFY2(added.ok(), added.ok() ? "" : qPrintable(added.error().message));
    QCOMPARE(added->rule.folder, QStringLiteral(""));
    QVERIFY(
        network.remove(QString(), QStringLiteral("crates.io"), std::nullopt, QStringLiteral("a"))
            .ok());
}

void NetworkRulesTest::removeOwnRules()
{
    PolicyFixture fixture;
    buildTree(fixture);
    NetworkRules &network = fixture.policy().network();
    QVERIFY(network
                .add(QStringLiteral("corp"), QStringLiteral("github.com"), RuleKind::Deny,
                     QStringLiteral("a"))
                .ok());
    // An inherited rule is not the folder's to remove.
    QCOMPARE(network
                 .remove(QStringLiteral("corp/eng"), QStringLiteral("pypi.org"), std::nullopt,
                         QStringLiteral("a"))
                 .error()
                 .code,
             QStringLiteral("policy.no-such-rule"));
    const auto allowOnly = network.remove(QStringLiteral("corp"), QStringLiteral("*.github.com"),
                                          RuleKind::Allow, QStringLiteral("a"));
    QCOMPARE(allowOnly->size(), 1);
    QCOMPARE(network.list(QStringLiteral("corp"))->size(), 2);
    QVERIFY(network
                .add(QStringLiteral("corp"), QStringLiteral("github.com"), RuleKind::Allow,
                     QStringLiteral("a"))
                .ok());
    const auto both = network.remove(QStringLiteral("corp"), QStringLiteral("github.com"),
                                     std::nullopt, QStringLiteral("a"));
    QCOMPARE(both->size(), 2);
    QVERIFY(network.test(QStringLiteral("corp"), QStringLiteral("github.com"))->allowed == false);
}

void NetworkRulesTest::otherConnectionsChangesAreSeen()
{
    PolicyFixture fixture;
    buildTree(fixture);
    NetworkRules &network = fixture.policy().network();
    QVERIFY(!network.test(QStringLiteral("other"), QStringLiteral("example.net"))->allowed);
    auto second = arizuko::store::Store::open(fixture.dataDir());
    QVERIFY(second.ok());
    arizuko::policy::Policy otherPolicy(**second);
    QVERIFY(otherPolicy.network()
                .add(QStringLiteral(""), QStringLiteral("example.net"), RuleKind::Allow,
                     QStringLiteral("a"))
                .ok());
    QVERIFY(network.test(QStringLiteral("other"), QStringLiteral("example.net"))->allowed);
    QVERIFY(otherPolicy.network()
                .add(QStringLiteral("other"), QStringLiteral("example.net"), RuleKind::Deny,
                     QStringLiteral("a"))
                .ok());
    QVERIFY(!network.test(QStringLiteral("other"), QStringLiteral("example.net"))->allowed);
}

QTEST_MAIN(NetworkRulesTest)
#include "test_network_rules.moc"
